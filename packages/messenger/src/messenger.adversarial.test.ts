import { Branch, branchProvider, CloneError, defineTool } from '@bough/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { MessengerErrorCode } from './errors.js';
import { Exchange } from './exchange.js';
import type { ExchangeMessage } from './exchange-transport.js';
import { InMemoryTransport } from './memory-transport.js';
import type { MessengerCallbacks } from './messenger-deps.js';
import { type MessengerOptions, messengerProvider } from './messenger-tool.js';
import {
  type MessengerRequest,
  MessengerRequest as MessengerRequestSchema,
  type MessengerResponse,
  type TargetResult,
} from './schema.js';

type Out = {
  success: boolean;
  error_code?: string;
  error?: string;
  results: TargetResult[];
  messages: { content: string }[];
};

async function team(options: Omit<MessengerOptions, 'exchange' | 'roster'> = {}) {
  const exchange = new Exchange();
  const alice = new Branch({ name: 'alice' });
  const bob = new Branch({ name: 'bob' });
  const roster: Record<string, string> = { alice: alice.id, bob: bob.id };
  for (const branch of [alice, bob]) {
    await exchange.register(branch.id);
    branch.registerTools(messengerProvider({ exchange, roster, ...options }));
  }
  const call = async (branch: Branch, args: unknown, timeoutMs?: number) =>
    (await branch.act({ name: 'messenger', arguments: args }, timeoutMs === undefined ? {} : { timeoutMs }))
      .output as Out;
  return { exchange, alice, bob, roster, call };
}

const hang = () => new Promise<never>(() => {});

describe('messenger with hostile names', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'treats %s as an unknown teammate, not an inherited roster entry',
    async (name) => {
      const { alice, call } = await team();
      const out = await call(alice, { action: 'send', to: name, content: 'x' });
      expect(out).toMatchObject({ success: false, error_code: 'unknown_recipient' });
      expect(await call(alice, { action: 'receive', from: name })).toMatchObject({ error_code: 'unknown_recipient' });
    },
  );

  it('refuses absurdly long names without echoing them back', async () => {
    const { alice, call } = await team();
    const name = 'n'.repeat(100_000);
    for (const request of [
      { action: 'send', to: name, content: 'x' },
      { action: 'wakeup', to: [name], content: 'x' },
      { action: 'receive', from: name },
    ]) {
      const out = await call(alice, request);
      expect(out).toMatchObject({ success: false, error_code: 'invalid_request' });
      expect(out.error?.length).toBeLessThan(1_000);
    }
  });

  it("delivers a message sent to oneself to one's own inbox (a note to self)", async () => {
    const { alice, call } = await team();
    expect(await call(alice, { action: 'send', to: 'alice', content: 'remember' })).toMatchObject({ success: true });
    expect((await call(alice, { action: 'receive' })).messages.map((m) => m.content)).toEqual(['remember']);
  });

  it('refuses 10,000 recipients as too_many_recipients, but counts repeated names once', async () => {
    const { alice, bob, exchange, call } = await team();
    const many = Array.from({ length: 10_000 }, (_, i) => `mate${i}`);
    expect(await call(alice, { action: 'send', to: many, content: 'x' })).toMatchObject({
      error_code: 'too_many_recipients',
    });
    const repeated = Array.from({ length: 10_000 }, () => 'bob');
    expect(await call(alice, { action: 'send', to: repeated, content: 'x' })).toMatchObject({
      success: true,
      results: [{ to: 'bob', ok: true }],
    });
    expect(await exchange.receive(bob.id)).toHaveLength(1);
  });

  it('caps content for send, wakeup and every signal', async () => {
    const { alice, call } = await team({ callbacks: { onDone: () => 'ok', onHelp: () => 'ok' } });
    const huge = 'x'.repeat(5_000_000);
    for (const request of [
      { action: 'send', to: 'bob', content: huge },
      { action: 'wakeup', to: 'bob', content: huge },
      { action: 'done', content: huge },
      { action: 'finished', content: huge },
      { action: 'help', content: huge },
    ]) {
      const out = await call(alice, request);
      expect(out).toMatchObject({ success: false, error_code: 'content_too_long' });
      expect(out.error?.length).toBeLessThan(1_000);
    }
  });

  it('reports a roster name whose branch is not on the exchange instead of pretending it was sent', async () => {
    const { alice, exchange, roster, call } = await team();
    roster.dave = 'not-started-yet';
    const out = await call(alice, { action: 'send', to: ['bob', 'dave'], content: 'hi' });
    expect(out.results).toMatchObject([
      { to: 'bob', ok: true },
      { to: 'dave', ok: false, error_code: 'recipient_offline' },
    ]);
    expect(exchange.dropped).toBe(0);
  });
});

describe('messenger callbacks that misbehave', () => {
  it('gives up on a hanging callback after callbackTimeoutMs with callback_timed_out', async () => {
    const callbacks: MessengerCallbacks = { onDone: hang, onFinished: hang, onHelp: hang, onWakeup: hang };
    const { alice, bob, exchange, call } = await team({ callbacks, limits: { callbackTimeoutMs: 20 } });
    for (const request of [{ action: 'done' }, { action: 'finished' }, { action: 'help', content: 'stuck' }]) {
      expect(await call(alice, request)).toMatchObject({ success: false, error_code: 'callback_timed_out' });
    }
    const woke = await call(alice, { action: 'wakeup', to: 'bob', content: 'up' });
    expect(woke).toMatchObject({
      success: false,
      results: [{ to: 'bob', ok: false, error_code: 'callback_timed_out' }],
    });
    expect(await exchange.receive(bob.id)).toHaveLength(1);
  });

  it('stops waiting for a hanging callback when the call is cancelled by its own timeout', async () => {
    const { alice, call } = await team({ callbacks: { onDone: hang } });
    const call2 = await alice.act({ name: 'messenger', arguments: { action: 'done' } }, { timeoutMs: 20 });
    expect(call2.status).toBe('cancelled');
    expect(call2.error?.code).toBe('timed_out');
    // The tool is still usable afterwards.
    expect(await call(alice, { action: 'receive' })).toMatchObject({ success: true });
  });

  it('turns callbacks that throw odd values into callback_failed', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const thrown of [cyclic, null, Symbol('s'), 'plain']) {
      const { alice, call } = await team({
        callbacks: {
          onHelp: () => {
            throw thrown;
          },
        },
      });
      expect(await call(alice, { action: 'help', content: 'x' })).toMatchObject({ error_code: 'callback_failed' });
    }
  });
});

describe('exchange recovery', () => {
  it('keeps a broadcast copy whose write failed in flight and stores it once on the retry', async () => {
    class WriteOnceBroken extends InMemoryTransport {
      broken = true;
      override async writeInbox(delivery: Parameters<InMemoryTransport['writeInbox']>[0]): Promise<void> {
        if (this.broken && delivery.to === 'c') {
          this.broken = false;
          throw new Error('ledger offline');
        }
        return super.writeInbox(delivery);
      }
    }
    const exchange = new Exchange({ transport: new WriteOnceBroken() });
    for (const owner of ['a', 'b', 'c']) await exchange.register(owner);
    await exchange.send('a', null, 'must arrive');
    expect(exchange.pendingCount).toBe(1);
    expect(await exchange.receive('c')).toEqual([]);
    await exchange.send('a', 'c', 'second');
    expect(exchange.pendingCount).toBe(0);
    expect((await exchange.receive('c')).map((m: ExchangeMessage) => m.content)).toEqual(['must arrive', 'second']);
    expect((await exchange.receive('b')).map((m: ExchangeMessage) => m.content)).toEqual(['must arrive']);
  });

  it('broadcasts to 10,000 owners, one copy each', async () => {
    const exchange = new Exchange();
    for (let i = 0; i < 10_000; i += 1) await exchange.register(`o${i}`);
    await exchange.send('o0', null, 'all');
    expect(exchange.pendingCount).toBe(0);
    expect(await exchange.receive('o0')).toHaveLength(0);
    expect(await exchange.receive('o9999')).toHaveLength(1);
  });
});

describe('messenger and a clone that fails to build', () => {
  it('leaves no half-built clone registered on the exchange', async () => {
    const { alice, exchange } = await team();
    let builds = 0;
    alice.registerTools(
      branchProvider('fragile', () => {
        builds += 1;
        if (builds > 1) throw new Error('cannot rebuild');
        return [
          defineTool({
            name: 'fragile',
            description: 'A bound tool whose provider fails on the second build.',
            request: z.object({}),
            scope: 'branch',
            handler: async () => 1,
          }),
        ];
      }),
    );
    const before = (await exchange.ownerIds()).sort();
    expect(() => alice.clone()).toThrow(CloneError);
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect((await exchange.ownerIds()).sort()).toEqual(before);
    // A clone that succeeds still joins.
    const fine = new Branch();
    fine.registerTools(messengerProvider({ exchange }));
    const clone = fine.clone();
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(await exchange.has(clone.id)).toBe(true);
  });
});

describe('messenger public types', () => {
  it('closes the action and urgency enums and types per-target results', () => {
    expectTypeOf<MessengerRequest['action']>().toEqualTypeOf<
      'send' | 'receive' | 'done' | 'finished' | 'wakeup' | 'help'
    >();
    expectTypeOf<MessengerRequest['urgency']>().toEqualTypeOf<'fyi' | 'blocked'>();
    expectTypeOf<MessengerRequest['to']>().toEqualTypeOf<string | string[] | null | undefined>();
    expectTypeOf<TargetResult['ok']>().toEqualTypeOf<boolean>();
    expectTypeOf<Extract<MessengerResponse, { success: false }>['error_code']>().toEqualTypeOf<MessengerErrorCode>();
    // The enums are closed at run time too.
    expect(MessengerRequestSchema.safeParse({ action: 'shout' }).success).toBe(false);
    expect(MessengerRequestSchema.safeParse({ action: 'help', urgency: 'soon' }).success).toBe(false);
  });
});
