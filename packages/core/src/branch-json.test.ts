import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CloneError, ConfigurationError } from './bough-error.js';
import { Branch } from './branch.js';
import { branchFromJson, branchToJson } from './branch-json.js';
import { branchProvider, statelessProvider } from './provider.js';
import { defineTool, type Tool } from './tool.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  request: z.object({ text: z.string() }),
  handler: async ({ text }) => text,
});
/** A bound tool that reports which branch it was built for. */
const whoProvider = branchProvider('who', (context) => [
  defineTool({
    name: 'who',
    description: 'Names the branch.',
    scope: 'branch',
    request: z.object({}),
    handler: async () => context.branch.id,
  }) as Tool,
]);

async function saved(): Promise<{ branch: Branch; json: unknown }> {
  const branch = new Branch({ name: 'work', system: 'sys' });
  branch.registerTools([statelessProvider('echo', [echo]), whoProvider]);
  branch.metadata.task = 'demo';
  branch.addMessage({ role: 'user', content: 'hi', metadata: { tag: 1 } });
  await branch.act({ name: 'echo', arguments: { text: 'one' }, id: 'c1' });
  const old = branch.addMessage({ role: 'assistant', content: 'old news' });
  branch.evict([old.id]);
  // Through a JSON text, as a session file would carry it.
  return { branch, json: JSON.parse(JSON.stringify(branchToJson(branch))) };
}

describe('branch JSON', () => {
  it('keeps messages (ids, timestamps, metadata), the active view and the metadata, and rebuilds tools', async () => {
    const { branch, json } = await saved();
    const loaded = branchFromJson(json, { tools: [statelessProvider('echo', [echo]), whoProvider] });
    expect(loaded.id).toBe(branch.id);
    expect(loaded.name).toBe('work');
    expect(loaded.messages).toEqual(branch.messages);
    expect(loaded.activeIds()).toEqual(branch.activeIds());
    expect(loaded.metadata).toEqual({ task: 'demo' });
    expect(loaded.isCallActive('c1')).toBe(true);
    expect(loaded.tools.map((tool) => tool.name)).toEqual(['echo', 'who']);
    // The bound tool was built for the loaded branch, and the loaded branch goes on like any other.
    expect((await loaded.act({ name: 'who', arguments: {} })).output).toBe(loaded.id);
    expect(loaded.messages).toHaveLength(branch.messages.length + 2);
    expect(Object.isFrozen(loaded.messages[1])).toBe(true);
  });

  it('reports a bound tool without a provider, as clone does, unless told to drop it', async () => {
    const branch = new Branch();
    branch.registerTools(
      defineTool({
        name: 'solo',
        description: 'Bound, no provider.',
        scope: 'branch',
        request: z.object({}),
        handler: async () => 1,
      }) as Tool,
    );
    const json = branchToJson(branch);
    expect(() => branchFromJson(json)).toThrow(CloneError);
    expect(() => branchFromJson(json)).toThrow(/solo/);
    expect(branchFromJson(json, { unbound: 'drop' }).tools).toEqual([]);
  });

  it('reports saved tools the given providers no longer build', async () => {
    const { json } = await saved();
    const error = (() => {
      try {
        branchFromJson(json, { tools: [whoProvider] });
      } catch (caught) {
        return caught as CloneError;
      }
    })();
    expect(error).toBeInstanceOf(CloneError);
    expect(error?.tools).toEqual(['echo']);
  });

  it('refuses what is not a saved branch, saying what is wrong', () => {
    expect(() => branchFromJson({ format: 'other' })).toThrow(ConfigurationError);
    expect(() => branchFromJson(null)).toThrow(/Not a saved bough branch/);
  });
});
