import { BoughError, Branch, ConfigurationError } from '@bough/core';
import { describe, expect, it } from 'vitest';
import type { ReceivedMessage, TargetResult } from './schema.js';

/** The response fields the tests read, whatever the action. */
type Out = { success: boolean; note?: string; results: TargetResult[]; messages: ReceivedMessage[] };

import { describeToolConformance } from '@bough/test-utils';
import { Exchange, ExchangeError } from './exchange.js';
import { InMemoryTransport } from './memory-transport.js';
import { createMessengerTool, type MessengerOptions, messengerProvider } from './messenger-tool.js';
import { TransportUnavailableError } from './transport-error.js';

async function setup(options: Omit<MessengerOptions, 'exchange' | 'roster'> = {}) {
  let clock = 10_000;
  const exchange = new Exchange({ now: () => clock++ });
  const alice = new Branch({ name: 'alice' });
  const bob = new Branch({ name: 'bob' });
  const carol = new Branch({ name: 'carol' });
  const roster: Record<string, string> = { alice: alice.id, bob: bob.id, carol: carol.id };
  for (const branch of [alice, bob, carol]) {
    await exchange.register(branch.id);
    branch.registerTools(messengerProvider({ exchange, roster, ...options }));
  }
  const call = async (branch: Branch, args: unknown) =>
    (await branch.act({ name: 'messenger', arguments: args })).output as Out;
  return { exchange, alice, bob, carol, roster, call };
}

describeToolConformance('messenger', {
  makeTool: () => createMessengerTool(new Branch(), { exchange: new Exchange() }),
  validRequest: () => ({ action: 'receive' }),
  invalidRequests: [
    { action: 'shout' },
    { action: 'help', urgency: 'soon' },
    { action: 'send', to: [] },
    { action: 'done', x: 1 },
  ],
});

describe('messenger send and receive', () => {
  it('delivers at once, names the sender, and keeps a hidden record in the sender branch', async () => {
    const { alice, bob, call } = await setup();
    const sent = await call(alice, { action: 'send', to: 'bob', content: 'tests pass' });
    expect(sent).toMatchObject({ success: true, action: 'send', results: [{ to: 'bob', ok: true }] });
    const got = await call(bob, { action: 'receive' });
    expect(got).toMatchObject({
      success: true,
      remaining: 0,
      messages: [{ from: 'alice', sender_id: alice.id, content: 'tests pass' }],
    });
    expect(got.messages[0]?.id).toBe(sent.results[0]?.message_id);
    const log = alice.messages.find((m) => m.metadata.messenger !== undefined);
    expect(log).toMatchObject({ role: 'assistant', metadata: { messenger: { kind: 'send', to: ['bob'] } } });
    expect(alice.isActive(log?.id as string)).toBe(false);
    expect(await call(bob, { action: 'receive' })).toMatchObject({ messages: [], note: 'No new messages.' });
  });

  it('reports unknown names per target and still sends to the known ones', async () => {
    const { alice, call } = await setup();
    const out = await call(alice, { action: 'send', to: ['bob', 'mallory'], content: 'hi' });
    expect(out.success).toBe(true);
    expect(out.results).toMatchObject([
      { to: 'bob', ok: true },
      { to: 'mallory', ok: false, error_code: 'unknown_recipient' },
    ]);
    expect(out.results[1]?.error).toContain('alice, bob, carol');
    const none = await call(alice, { action: 'send', to: 'mallory', content: 'hi' });
    expect(none).toMatchObject({ success: false, error_code: 'unknown_recipient', results: [{ ok: false }] });
  });

  it('broadcasts with to="*" to every other teammate', async () => {
    const { alice, bob, carol, call } = await setup();
    await call(alice, { action: 'send', to: '*', content: 'standup' });
    expect((await call(bob, { action: 'receive' })).messages).toHaveLength(1);
    expect((await call(carol, { action: 'receive' })).messages).toHaveLength(1);
    expect((await call(alice, { action: 'receive' })).messages).toHaveLength(0);
  });

  it('returns messages oldest first, filters by sender, and pages with remaining', async () => {
    const { alice, bob, carol, exchange, call } = await setup({ limits: { maxReceive: 2 } });
    await call(bob, { action: 'send', to: 'alice', content: 'b1' });
    await call(carol, { action: 'send', to: 'alice', content: 'c1' });
    const stranger = 'f00dfeed-0000-4000-8000-000000000000';
    await exchange.register(stranger);
    await exchange.send(stranger, alice.id, 's1');
    await call(bob, { action: 'send', to: 'alice', content: 'b2' });
    expect(await call(alice, { action: 'receive', from: 'bob' })).toMatchObject({
      messages: [{ content: 'b1' }, { content: 'b2' }],
      remaining: 0,
    });
    const rest = await call(alice, { action: 'receive' });
    expect(rest).toMatchObject({
      messages: [
        { content: 'c1', from: 'carol' },
        { content: 's1', from: 'f00dfeed' },
      ],
    });
    expect(await call(alice, { action: 'receive', from: 'nobody' })).toMatchObject({ error_code: 'unknown_recipient' });
  });

  it.each([
    [{ action: 'send', content: 'x' }],
    [{ action: 'send', to: 'bob' }],
    [{ action: 'send', to: 'bob', content: '  ' }],
    [{ action: 'wakeup', content: 'x' }],
    [{ action: 'wakeup', to: '*', content: 'x' }],
    [{ action: 'help' }],
  ])('refuses %j as invalid_request', async (request) => {
    const { alice, call } = await setup();
    expect(await call(alice, request)).toMatchObject({ success: false, error_code: 'invalid_request' });
  });

  it('enforces the content and recipient limits', async () => {
    const { alice, call } = await setup({ limits: { maxContentChars: 5, maxRecipients: 1 } });
    expect(await call(alice, { action: 'send', to: 'bob', content: 'too long' })).toMatchObject({
      error_code: 'content_too_long',
    });
    expect(await call(alice, { action: 'send', to: ['bob', 'carol'], content: 'ok' })).toMatchObject({
      error_code: 'too_many_recipients',
    });
  });

  it('turns an exchange exception into exchange_failed', async () => {
    class Broken extends InMemoryTransport {
      override async writeInbox(): Promise<void> {
        throw new Error('disk broken');
      }
    }
    const exchange = new Exchange({ transport: new Broken() });
    const branch = new Branch();
    branch.registerTools(messengerProvider({ exchange, roster: { me: branch.id } }));
    const call = await branch.act({ name: 'messenger', arguments: { action: 'send', to: 'me', content: 'x' } });
    expect(call.status).toBe('completed');
    expect(call.output).toMatchObject({ success: false, error_code: 'exchange_failed', results: [{ ok: false }] });
  });

  it('turns a transport outage into transport_unavailable', async () => {
    class Down extends InMemoryTransport {
      override async writeInbox(): Promise<void> {
        throw new TransportUnavailableError('broker offline');
      }
    }
    const exchange = new Exchange({ transport: new Down() });
    const branch = new Branch();
    branch.registerTools(messengerProvider({ exchange, roster: { me: branch.id } }));
    const call = await branch.act({ name: 'messenger', arguments: { action: 'send', to: 'me', content: 'x' } });
    expect(call.output).toMatchObject({
      success: false,
      error_code: 'transport_unavailable',
      results: [{ ok: false }],
    });
  });

  it('can record sent messages visibly or not at all', async () => {
    for (const [recordSent, count, active] of [
      ['visible', 1, true],
      ['none', 0, false],
    ] as const) {
      const { alice, call } = await setup({ recordSent });
      await call(alice, { action: 'send', to: 'bob', content: 'x' });
      const logs = alice.messages.filter((m) => m.metadata.messenger !== undefined);
      expect(logs).toHaveLength(count);
      if (logs[0]) expect(alice.isActive(logs[0].id)).toBe(active);
    }
  });
});

describe('messenger registration', () => {
  it('joins the exchange when the tool is built, so mail sent before first use is delivered', async () => {
    const exchange = new Exchange();
    const alice = new Branch({ name: 'alice' });
    const bob = new Branch({ name: 'bob' });
    const roster = { alice: alice.id, bob: bob.id };
    for (const branch of [alice, bob]) branch.registerTools(messengerProvider({ exchange, roster }));
    const sent = (await alice.act({ name: 'messenger', arguments: { action: 'send', to: 'bob', content: 'early' } }))
      .output as Out;
    expect(sent.results?.[0]?.ok).toBe(true);
    const got = (await bob.act({ name: 'messenger', arguments: { action: 'receive' } })).output as Out;
    expect(got.messages.map((m) => m.content)).toEqual(['early']);
  });
});

describe('messenger clone', () => {
  it('sends as the clone from the clone and as the source from the source', async () => {
    const { alice, bob, exchange, call } = await setup();
    const clone = alice.clone();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await exchange.has(clone.id)).toBe(true);
    await call(clone, { action: 'send', to: 'bob', content: 'from clone' });
    await call(alice, { action: 'send', to: 'bob', content: 'from source' });
    expect(await exchange.has(clone.id)).toBe(true);
    const got = await call(bob, { action: 'receive' });
    expect(got.messages.map((m) => m.sender_id)).toEqual([clone.id, alice.id]);
    expect(got.messages[0]?.from).toBe(clone.id.slice(0, 8));
    expect(clone.messages.some((m) => m.metadata.messenger !== undefined)).toBe(true);
    expect(alice.messages.filter((m) => m.metadata.messenger !== undefined)).toHaveLength(1);
  });
});

describe('limits and thrown errors', () => {
  it('throws a configuration error naming the key for a bad override, at build time', () => {
    const exchange = new Exchange();
    const branch = new Branch({ name: 'alice' });
    expect(() => createMessengerTool(branch, { exchange, limits: { maxRecipients: 0 } })).toThrow(/maxRecipients/);
    expect(() => messengerProvider({ exchange, limits: { maxRecieve: 3 } as never })).toThrow(/maxRecieve/);
    expect(() => messengerProvider({ exchange, limits: { maxContentChars: 2.5 } })).toThrow(ConfigurationError);
  });

  it('refuses to build without an exchange, which is only ever passed explicitly', () => {
    const branch = new Branch({ name: 'alice' });
    expect(() => createMessengerTool(branch, {} as never)).toThrow(/needs an Exchange/);
    expect(() => branch.registerTools(messengerProvider({ exchange: 'not one' } as never))).toThrow(ConfigurationError);
  });

  it('throws bough errors with stable codes', () => {
    const error = new TransportUnavailableError('broker offline');
    expect(BoughError.isInstance(error)).toBe(true);
    expect(error.code).toBe('transport_unavailable');
    expect(new ExchangeError('misuse').code).toBe('exchange_misuse');
  });
});
