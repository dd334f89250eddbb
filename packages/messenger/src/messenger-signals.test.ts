import { Branch } from '@bough/core';
import { describe, expect, it } from 'vitest';
import type { ReceivedMessage, TargetResult } from './schema.js';

/** The response fields the tests read, whatever the action. */
type Out = { success: boolean; note?: string; results: TargetResult[]; messages: ReceivedMessage[] };

import { Exchange } from './exchange.js';
import type { MessengerCallbacks } from './messenger-deps.js';
import { messengerProvider } from './messenger-tool.js';

async function agent(callbacks?: MessengerCallbacks) {
  const exchange = new Exchange();
  const me = new Branch();
  const bob = new Branch();
  const carol = new Branch();
  const roster = { me: me.id, bob: bob.id, carol: carol.id };
  for (const branch of [me, bob, carol]) await exchange.register(branch.id);
  me.registerTools(messengerProvider({ exchange, roster, ...(callbacks ? { callbacks } : {}) }));
  const call = async (args: unknown) => (await me.act({ name: 'messenger', arguments: args })).output as Out;
  return { exchange, me, bob, carol, call };
}

describe('messenger signals', () => {
  it('passes done, finished and help to the callbacks and returns their results', async () => {
    const seen: unknown[] = [];
    const { me, call } = await agent({
      onDone: (event) => {
        seen.push(['done', event]);
        return 'noted';
      },
      onFinished: async (event) => seen.push(['finished', event]),
      onHelp: (event) => ({ ticket: 7, urgency: event.urgency }),
    });
    expect(await call({ action: 'done', content: 'task 1 ready' })).toMatchObject({
      success: true,
      action: 'done',
      name: 'me',
      reason: 'task 1 ready',
      handled: true,
      callback_result: 'noted',
    });
    expect(await call({ action: 'finished' })).toMatchObject({
      success: true,
      reason: 'no reason given',
      handled: true,
    });
    expect(await call({ action: 'help', content: 'tests hang', urgency: 'blocked' })).toMatchObject({
      success: true,
      urgency: 'blocked',
      callback_result: { ticket: 7, urgency: 'blocked' },
    });
    expect(seen).toEqual([
      ['done', { name: 'me', senderId: me.id, reason: 'task 1 ready' }],
      ['finished', { name: 'me', senderId: me.id, reason: 'no reason given' }],
    ]);
  });

  it('says so when nobody listens for a signal', async () => {
    const { call } = await agent();
    const out = await call({ action: 'help', content: 'stuck' });
    expect(out).toMatchObject({ success: true, handled: false, urgency: 'fyi' });
    expect(out.note).toContain('No coordinator');
  });

  it('turns a throwing callback into callback_failed', async () => {
    const boom = () => {
      throw new Error('coordinator down');
    };
    const { call } = await agent({ onDone: boom, onHelp: boom });
    expect(await call({ action: 'done' })).toMatchObject({ success: false, error_code: 'callback_failed' });
    expect(await call({ action: 'help', content: 'x' })).toMatchObject({
      success: false,
      error_code: 'callback_failed',
    });
  });

  it('wakes every listed teammate with a [WAKEUP] message and one callback each', async () => {
    const woken: string[] = [];
    const { exchange, bob, carol, call } = await agent({
      onWakeup: (event) => woken.push(`${event.target}:${event.message}`),
    });
    const out = await call({ action: 'wakeup', to: ['bob', 'carol', 'zed'], content: 'review ready' });
    expect(out.results).toMatchObject([
      { to: 'bob', ok: true },
      { to: 'carol', ok: true },
      { to: 'zed', ok: false, error_code: 'unknown_recipient' },
    ]);
    expect(woken).toEqual(['bob:review ready', 'carol:review ready']);
    for (const branch of [bob, carol]) {
      expect((await exchange.receive(branch.id)).map((m) => m.content)).toEqual(['[WAKEUP] review ready']);
    }
  });

  it('reports a failing wakeup callback per target; the message itself was queued', async () => {
    const { exchange, bob, call } = await agent({
      onWakeup: () => {
        throw new Error('no pager');
      },
    });
    const out = await call({ action: 'wakeup', to: 'bob', content: 'up' });
    expect(out).toMatchObject({ success: false, error_code: 'callback_failed', results: [{ to: 'bob', ok: false }] });
    expect(out.results[0]?.message_id).toBeDefined();
    expect(await exchange.receive(bob.id)).toHaveLength(1);
  });
});
