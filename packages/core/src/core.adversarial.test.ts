import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CloneError, ConfigurationError } from './bough-error.js';
import { Branch } from './branch.js';
import { executeTool, ToolCall } from './call.js';
import { branchToChatMessages } from './chat-transcript.js';
import { errorMessage } from './errors.js';
import { messageText } from './messages.js';
import { branchProvider } from './provider.js';
import { ToolRegistry } from './registry.js';
import { MAX_TIMEOUT_MS } from './timeout.js';
import { defineTool, RESERVED_TOOL_NAMES, type Tool } from './tool.js';

const tool = <REQ>(name: string, request: z.ZodType<REQ>, handler: (args: REQ) => Promise<unknown>): Tool =>
  defineTool({ name, description: `${name}: a tool for hostile-input tests.`, request, handler });

const inspect = async (args: unknown) => ({
  ownKeys: Object.keys(args as object),
  plainPrototype: Object.getPrototypeOf(args) === Object.prototype,
  globalPolluted: ({} as Record<string, unknown>).polluted !== undefined,
});

describe('tool names', () => {
  it.each(RESERVED_TOOL_NAMES)('refuses the object-builtin name %s even though it matches the pattern', (name) => {
    expect(() => tool(name, z.object({}), async () => 1)).toThrow(ConfigurationError);
    expect(() => tool(name, z.object({}), async () => 1)).toThrow(/reserved/);
  });

  it('treats __proto__ and constructor as unknown names when invoked, listing what exists', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('real', z.object({}), async () => 1));
    for (const name of ['__proto__', 'constructor', 'toString']) {
      const call = await registry.invoke(name, {});
      expect(call.error?.code).toBe('unknown_tool');
      expect(call.error?.message).toContain('real');
      expect(registry.has(name)).toBe(false);
    }
  });
});

describe('hostile arguments', () => {
  const evil = () => JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}}');

  it('a strict schema refuses __proto__ and constructor keys, naming them', async () => {
    const call = await executeTool(
      tool('strict', z.object({ a: z.number().optional() }).strict(), async () => 1),
      evil(),
    );
    expect(call.error?.code).toBe('invalid_request');
    expect(call.error?.message).toContain('__proto__');
    expect(call.error?.message).toContain('constructor');
  });

  it.each([
    ['record', z.record(z.string(), z.unknown())],
    ['loose object', z.object({}).loose()],
    ['stripping object', z.object({ a: z.number().optional() })],
  ])('a %s schema never hands the handler a polluted object, nor pollutes Object.prototype', async (_, request) => {
    const call = await executeTool(tool('open', request as z.ZodType<unknown>, inspect), evil());
    expect(call.status).toBe('completed');
    expect(call.output).toMatchObject({ plainPrototype: true, globalPolluted: false });
    expect((call.output as { ownKeys: string[] }).ownKeys).not.toContain('__proto__');
  });

  it.each([[null], [5], ['text'], [[]], [undefined], [true]])(
    'refuses the non-object arguments %j with invalid_request',
    async (args) => {
      const call = await executeTool(
        tool('obj', z.object({}).strict(), async () => 1),
        args,
      );
      expect(call.status).toBe('failed');
      expect(call.error?.code).toBe('invalid_request');
      expect(call.error?.message).toMatch(/expected object/);
    },
  );

  it('records cyclic arguments and results without crashing messages, tokens or the chat transcript', async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const branch = new Branch({ system: 'sys' });
    branch.registerTools([
      tool('echo', z.unknown(), async (args) => args),
      tool('strict', z.object({ a: z.number() }).strict(), async () => 1),
    ]);
    const calls = await branch.act([
      { name: 'echo', arguments: cyclic },
      { name: 'strict', arguments: cyclic },
    ]);
    expect(calls.map((call) => call.status)).toEqual(['completed', 'failed']);
    expect(branch.messages).toHaveLength(5);
    const text = messageText(branch.messages[1] as never);
    expect(text).toContain('[Circular]');
    const chat = branchToChatMessages(branch);
    expect(chat.map((message) => message.role)).toEqual(['system', 'assistant', 'tool', 'tool']);
    expect(chat[2]?.content).toContain('[Circular]');
    expect(() => JSON.stringify(chat)).not.toThrow();
  });

  it('turns whatever a handler throws into readable handler_error text', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const nasty = {
      get message(): string {
        throw new Error('getter');
      },
      toJSON() {
        throw new Error('toJSON');
      },
      toString() {
        throw new Error('toString');
      },
    };
    for (const [thrown, expected] of [
      [cyclic, /\[Circular\]/],
      [Symbol('odd'), /Symbol\(odd\)/],
      [null, /null/],
      [nasty, /unprintable/],
    ] as const) {
      const call = await executeTool(
        tool('thrower', z.object({}), async () => {
          throw thrown;
        }),
        {},
      );
      expect(call.status).toBe('failed');
      expect(call.error?.code).toBe('handler_error');
      expect(call.error?.message).toMatch(expected);
    }
    expect(() => errorMessage(nasty)).not.toThrow();
  });

  it('contains a handler that throws synchronously (not a rejected promise)', async () => {
    const sync = tool('sync', z.object({}), (() => {
      throw new Error('sync bug');
    }) as never);
    for (const options of [{}, { timeoutMs: 10_000 }]) {
      const call = await executeTool(sync, {}, options);
      expect(call.error).toMatchObject({ code: 'handler_error', message: expect.stringContaining('sync bug') });
    }
  });
});

describe('ToolCall lifecycle and odd timeouts', () => {
  it('starts pending and settles once', async () => {
    const call = new ToolCall('x', {});
    expect(call.status).toBe('pending');
    expect(call.output).toBeUndefined();
    const done = await executeTool(
      tool('ok', z.object({}), async () => 'fine'),
      {},
    );
    expect(done.status).toBe('completed');
  });

  it.each([0, -1, Number.NaN, Number.NEGATIVE_INFINITY])(
    'treats timeoutMs %s as the default (no timeout), like every other bough timeout',
    async (timeoutMs) => {
      const call = await executeTool(
        tool('later', z.object({}), () => new Promise((resolve) => setTimeout(() => resolve('late'), 30))),
        {},
        { timeoutMs },
      );
      expect(call.status).toBe('completed');
      expect(call.output).toBe('late');
    },
  );

  it.each([Number.POSITIVE_INFINITY, 2 ** 40])('does not fire at once for the huge timeoutMs %s', async (timeoutMs) => {
    // Node timers overflow above 2^31-1 ms and would fire after 1 ms; the handler here takes a few timer turns.
    const call = await executeTool(
      tool('later', z.object({}), () => new Promise((resolve) => setTimeout(() => resolve('late'), 30))),
      {},
      { timeoutMs },
    );
    expect(call.status).toBe('completed');
    expect(call.output).toBe('late');
    expect(MAX_TIMEOUT_MS).toBe(2 ** 31 - 1);
  });
});

describe('Branch.setActiveIds', () => {
  it('refuses duplicates and unknown ids and leaves the active view as it was', () => {
    const branch = new Branch({ system: 's' });
    const a = branch.addMessage({ role: 'user', content: 'a' });
    const before = [...branch.activeIds()];
    expect(() => branch.setActiveIds([a.id, a.id])).toThrow(/appears twice/);
    expect(() => branch.setActiveIds([a.id, 'ghost'])).toThrow(/No message ghost/);
    expect(branch.activeIds()).toEqual(before);
    expect(branch.isActive(a.id)).toBe(true);
  });
});

describe('Branch.clone with a provider that fails', () => {
  const bound = (name: string): Tool =>
    defineTool({
      name,
      description: `${name}: bound tool for clone tests.`,
      request: z.object({}),
      scope: 'branch',
      handler: async () => name,
    });

  /** A provider that joins an outside directory when it builds, and leaves it if its branch is abandoned. */
  function joiningProvider(directory: Set<string>) {
    return branchProvider('joiner', ({ branch, abandoned }) => {
      directory.add(branch.id);
      abandoned?.addEventListener('abort', () => directory.delete(branch.id), { once: true });
      return [bound('joined')];
    });
  }

  it('throws a CloneError naming the provider and its tools, and tells earlier providers to undo', () => {
    const directory = new Set<string>();
    let builds = 0;
    const flaky = branchProvider('flaky', () => {
      builds += 1;
      if (builds > 1) throw new Error('disk on fire');
      return [bound('flaky_a'), bound('flaky_b')];
    });
    const source = new Branch({ system: 's' });
    source.registerTools([joiningProvider(directory), flaky]);
    expect([...directory]).toEqual([source.id]);
    let caught: unknown;
    try {
      source.clone();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CloneError);
    expect((caught as CloneError).tools).toEqual(['flaky_a', 'flaky_b']);
    expect((caught as Error).message).toContain('flaky');
    expect((caught as Error).message).toContain('disk on fire');
    expect(((caught as Error).cause as Error).message).toBe('disk on fire');
    // The half-built clone joined the directory while building and left it when the clone was abandoned.
    expect([...directory]).toEqual([source.id]);
    expect(source.registry.names()).toEqual(['joined', 'flaky_a', 'flaky_b']);
  });

  it('fails when a rebuild no longer produces a tool, unless told to drop it', () => {
    let builds = 0;
    const shrinking = branchProvider('shrinking', () => {
      builds += 1;
      return builds === 1 ? [bound('keep'), bound('lost')] : [bound('keep')];
    });
    const source = new Branch();
    source.registerTools(shrinking);
    expect(() => source.clone()).toThrow(/did not produce these tools: lost/);
    const clone = source.clone({ unbound: 'drop' });
    expect(clone.registry.names()).toEqual(['keep']);
  });

  it('refuses a rebuild that returns something other than tools', () => {
    let builds = 0;
    const liar = branchProvider('liar', () => {
      builds += 1;
      return (builds === 1 ? [bound('ok')] : [{ name: 'ok' }]) as never;
    });
    const source = new Branch();
    source.registerTools(liar);
    expect(() => source.clone()).toThrow(CloneError);
  });
});

describe('ToolRegistry.register with a provider that throws', () => {
  it('propagates the error and registers nothing from that call', () => {
    const registry = new ToolRegistry();
    registry.register(tool('first', z.object({}), async () => 1));
    const broken = {
      name: 'broken',
      scope: 'stateless' as const,
      build(): readonly Tool[] {
        throw new Error('cannot build');
      },
    };
    expect(() => registry.register([tool('second', z.object({}), async () => 2), broken])).toThrow(/cannot build/);
    expect(registry.names()).toEqual(['first']);
  });
});
