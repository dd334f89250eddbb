import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolRegistry } from './registry.js';
import type { ToolProgress } from './tool.js';
import { defineTool } from './tool.js';

describe('progress heartbeat', () => {
  it('tells a progress listener that a silent tool is still running, and stops when the call settles', async () => {
    let heard: (update: ToolProgress) => void = () => {};
    const beat = new Promise<ToolProgress>((resolve) => {
      heard = resolve;
    });
    const registry = new ToolRegistry();
    registry.register(
      defineTool({
        name: 'quiet',
        description: 'Reports once, then says nothing until the caller heard a heartbeat.',
        request: z.object({}).strict(),
        handler: async (_request, { progress }) => {
          progress?.({ message: 'own report', completed: 1 });
          await beat;
          return 'done';
        },
      }),
    );
    const updates: ToolProgress[] = [];
    const call = await registry.invoke(
      'quiet',
      {},
      {
        progress: (update) => {
          updates.push(update);
          if (update.message?.startsWith('running for')) heard(update);
        },
      },
    );
    expect(call.output).toBe('done');
    expect(updates[0]).toEqual({ message: 'own report', completed: 1 });
    expect(updates[1]?.message).toMatch(/^running for \d+ s$/);
    const settled = updates.length;
    // Whatever comes after the answer would be a leak; the next beat would have fired by now.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(updates).toHaveLength(settled);
  });
});
