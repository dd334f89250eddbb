import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CloneError, ConfigurationError } from './bough-error.js';
import { Branch } from './branch.js';
import { branchProvider, statelessProvider } from './provider.js';
import { defineTool, type Tool } from './tool.js';

const ping = defineTool({
  name: 'ping',
  description: 'Answers pong; a stateless tool shared between branches.',
  request: z.object({}).strict(),
  handler: async () => 'pong',
});

/** A provider whose tools close over the branch they were built for, the shape context/messenger/coding have. */
function notebookProvider(rebind: 'rebuild' | 'reject' = 'rebuild') {
  return branchProvider(
    'notebook',
    ({ branch }) => [
      defineTool({
        name: 'note',
        description: 'Appends a note to the bound branch and reports how many messages it holds.',
        request: z.object({ text: z.string() }).strict(),
        scope: 'branch',
        handler: async ({ text }) => {
          branch.addMessage({ role: 'assistant', content: text });
          return { branch: branch.id, count: branch.messages.length };
        },
      }),
      defineTool({
        name: 'count',
        description: 'Reports how many messages the bound branch holds.',
        request: z.object({}).strict(),
        scope: 'branch',
        handler: async () => ({ branch: branch.id, count: branch.messages.length }),
      }),
    ],
    { rebind },
  );
}

describe('Branch messages and active view', () => {
  it('keeps exactly one system message, first', () => {
    const branch = new Branch({ system: 'be brief' });
    branch.addMessage({ role: 'user', content: 'hi' });
    expect(() => branch.addMessage({ role: 'system', content: 'again' })).toThrow(ConfigurationError);
    branch.setSystem('be kind');
    expect(branch.messages.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(branch.system?.content).toBe('be kind');
    expect(branch.activeMessages()[0]?.role).toBe('system');

    const late = new Branch();
    late.addMessage({ role: 'user', content: 'first' });
    late.setSystem('added later');
    expect(late.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(late.activeMessages().map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('gives messages ids, timestamps, sender and recipient, and freezes them', () => {
    const branch = new Branch();
    const message = branch.addMessage({ role: 'user', content: { q: 1 }, sender: 'alice' });
    expect(message.id).toMatch(/[0-9a-f-]{36}/);
    expect(message.createdAt).toBeGreaterThan(0);
    expect(message.sender).toBe('alice');
    expect(message.recipient).toBe(branch.id);
    expect(Object.isFrozen(message)).toBe(true);
    expect(Object.isFrozen(message.content)).toBe(true);
  });

  it('evicts from the active view only, and restores in chronological order', () => {
    const branch = new Branch({ system: 's' });
    const ids = ['a', 'b', 'c', 'd'].map((text) => branch.addMessage({ role: 'user', content: text }).id);
    const events: string[] = [];
    branch.subscribe((event) => events.push(event.type));
    expect(branch.evict([ids[0] as string, ids[2] as string, 'missing'])).toBe(2);
    expect(branch.activeMessages().map((m) => m.content)).toEqual(['s', 'b', 'd']);
    expect(branch.messages).toHaveLength(5);
    expect(branch.restore([ids[2] as string, ids[0] as string])).toBe(2);
    expect(branch.activeMessages().map((m) => m.content)).toEqual(['s', 'a', 'b', 'c', 'd']);
    expect(events).toEqual(['active', 'active']);
    expect(() => branch.setActiveIds(['nope'])).toThrow(/No message/);
  });

  it('hands out a frozen snapshot of the active view that later changes do not touch', () => {
    const branch = new Branch({ system: 's' });
    const before = branch.activeIds();
    branch.addMessage({ role: 'user', content: 'later' });
    expect(before).toHaveLength(1);
    expect(Object.isFrozen(before)).toBe(true);
    expect(branch.activeIds()).toHaveLength(2);
    expect(branch.activeIds()).toBe(branch.activeIds());
  });
});

describe('Branch.act', () => {
  it('appends requests then responses for concurrent calls, alternating for sequential ones', async () => {
    const branch = new Branch();
    branch.registerTools(ping);
    const calls = await branch.act([
      { name: 'ping', arguments: {} },
      { name: 'missing', arguments: {} },
    ]);
    expect(calls.map((c) => c.status)).toEqual(['completed', 'failed']);
    expect(branch.messages.map((m) => m.role)).toEqual([
      'action_request',
      'action_request',
      'action_response',
      'action_response',
    ]);
    expect(branch.isCallActive(calls[0]?.id as string)).toBe(true);

    const seq = new Branch();
    seq.registerTools(ping);
    await seq.act(
      [
        { name: 'ping', arguments: {} },
        { name: 'ping', arguments: {} },
      ],
      { strategy: 'sequential' },
    );
    expect(seq.messages.map((m) => m.role)).toEqual([
      'action_request',
      'action_response',
      'action_request',
      'action_response',
    ]);
  });

  it('passes itself to handlers and records the output and status in the response', async () => {
    const branch = new Branch();
    branch.registerTools(notebookProvider());
    const call = await branch.act({ name: 'note', arguments: { text: 'x' } });
    expect(call.output).toEqual({ branch: branch.id, count: 2 });
    const response = branch.messages.at(-1);
    expect(response?.content).toMatchObject({ function: 'note', status: 'completed', call_id: call.id });
  });
});

describe('Branch.clone', () => {
  it('copies messages with new ids and their origin, keeps evictions and the one system message', () => {
    const source = new Branch({ system: 'sys', name: 'src' });
    const a = source.addMessage({ role: 'user', content: 'a', sender: 'alice' });
    const b = source.addMessage({ role: 'assistant', content: 'b' });
    source.evict([a.id]);
    const clone = source.clone();
    expect(clone.id).not.toBe(source.id);
    expect(clone.clonedFrom).toBe(source.id);
    expect(clone.messages.map((m) => m.content)).toEqual(['sys', 'a', 'b']);
    expect(clone.messages.map((m) => m.origin)).toEqual(source.messages.map((m) => m.id));
    expect(clone.messages.every((m, i) => m.id !== source.messages[i]?.id)).toBe(true);
    expect(clone.messages[1]?.sender).toBe('alice');
    expect(clone.activeMessages().map((m) => m.content)).toEqual(['sys', 'b']);
    expect(clone.messages.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(b.id).not.toBe(clone.messages[2]?.id);
  });

  it('shares stateless tools and rebuilds branch providers against the clone', () => {
    const source = new Branch();
    const provider = notebookProvider();
    source.registerTools([ping, statelessProvider('more', [defineTool({ ...ping, name: 'ping2' })]), provider]);
    const clone = source.clone();
    expect(clone.registry.names()).toEqual(source.registry.names());
    expect(clone.registry.get('ping')).toBe(source.registry.get('ping'));
    expect(clone.registry.get('ping2')).toBe(source.registry.get('ping2'));
    expect(clone.registry.get('note')).not.toBe(source.registry.get('note'));
    expect(clone.registry.providerOf('note')).toBe(provider);
  });

  it("proves the clone's bound tools can neither read nor change the source", async () => {
    const source = new Branch({ system: 's' });
    source.registerTools(notebookProvider());
    const clone = source.clone();
    const sourceCount = source.messages.length;
    const viaClone = await clone.act({ name: 'note', arguments: { text: 'from clone' } });
    expect(viaClone.output).toMatchObject({ branch: clone.id });
    expect(source.messages).toHaveLength(sourceCount);
    expect(source.messages.some((m) => m.content === 'from clone')).toBe(false);
    const viaSource = await source.act({ name: 'count', arguments: {} });
    expect(viaSource.output).toMatchObject({ branch: source.id });
    // A clone of a clone is still bound to its own branch.
    const grandchild = clone.clone();
    expect((await grandchild.act({ name: 'count', arguments: {} })).output).toMatchObject({ branch: grandchild.id });
  });

  it('fails loudly, naming the tools, when bound tools cannot be rebuilt, unless told to drop them', () => {
    const source = new Branch();
    const orphan: Tool = defineTool({ ...ping, name: 'orphan', scope: 'branch' });
    source.registerTools([ping, orphan, notebookProvider('reject')]);
    try {
      source.clone();
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CloneError);
      expect((error as CloneError).tools).toEqual(['orphan', 'note', 'count']);
      expect((error as Error).message).toContain('orphan, note, count');
    }
    const clone = source.clone({ unbound: 'drop' });
    expect(clone.registry.names()).toEqual(['ping']);
  });

  it('copies registry-level hooks and metadata without sharing the metadata object', async () => {
    const source = new Branch();
    source.registerTools(ping);
    source.registry.addHooks('*', { post: [() => 'hooked'] });
    source.metadata.owner = 'me';
    const clone = source.clone();
    expect((await clone.act({ name: 'ping', arguments: {} })).output).toBe('hooked');
    clone.metadata.owner = 'other';
    expect(source.metadata.owner).toBe('me');
  });
});
