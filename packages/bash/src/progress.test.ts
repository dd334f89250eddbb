import { makeWorkspace } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { createBashTool } from './tool.js';

describe('bash progress', () => {
  it('reports a running count of output bytes to the tool context', async () => {
    const ws = makeWorkspace();
    try {
      const updates: number[] = [];
      const tool = createBashTool({ workspaceRoot: ws.root });
      const output = await tool.handler(
        { command: `sh -c 'for i in 1 2 3 4 5; do echo chunk-$i; sleep 0.3; done'` },
        { signal: new AbortController().signal, callId: 'p', progress: (p) => updates.push(p.completed ?? 0) },
      );
      expect(output).toMatchObject({ return_code: 0 });
      expect(updates.length).toBeGreaterThan(0);
      expect(updates.every((n, i) => i === 0 || n >= (updates[i - 1] as number))).toBe(true);
    } finally {
      ws.cleanup();
    }
  });
});
