import { describeExchangeContract } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { Exchange, ExchangeError } from './exchange.js';
import type { Delivery } from './exchange-transport.js';
import { InMemoryTransport } from './memory-transport.js';
import { TransportUnavailableError } from './transport-error.js';

// The suite every transport runs; in memory, all members share one Exchange.
describeExchangeContract('in memory', async () => {
  const exchange = new Exchange();
  return { member: () => exchange, separate: false, close: () => exchange.close() };
});

class FlakyTransport extends InMemoryTransport {
  failing = new Set<string>();
  override async writeInbox(delivery: Delivery): Promise<void> {
    if (this.failing.has(delivery.to)) throw new TransportUnavailableError('broker offline');
    return super.writeInbox(delivery);
  }
}

async function flaky(): Promise<{ exchange: Exchange; transport: FlakyTransport }> {
  const transport = new FlakyTransport();
  const exchange = new Exchange({ transport });
  for (const owner of ['a', 'b', 'c']) await exchange.register(owner);
  return { exchange, transport };
}

describe('Exchange', () => {
  it('delivers on send: the recipient can take the message at once', async () => {
    const exchange = new Exchange();
    await exchange.register('a');
    await exchange.register('b');
    const message = await exchange.send('a', 'b', 'hello');
    expect(await exchange.receive('b')).toEqual([message]);
    await expect(exchange.register('a')).rejects.toBeInstanceOf(ExchangeError);
  });

  it('throws the transport failure when no copy could be stored', async () => {
    const { exchange, transport } = await flaky();
    transport.failing.add('b');
    await expect(exchange.send('a', 'b', 'x')).rejects.toBeInstanceOf(TransportUnavailableError);
    expect(exchange.pendingCount).toBe(0);
  });

  it('keeps failed broadcast copies in flight, blocks the sender until they are stored, then keeps order', async () => {
    const { exchange, transport } = await flaky();
    transport.failing.add('c');
    await exchange.send('a', null, 'first');
    expect(exchange.pendingCount).toBe(1);
    await expect(exchange.send('a', 'c', 'second')).rejects.toBeInstanceOf(TransportUnavailableError);
    expect(await exchange.drainPending()).toMatchObject({ delivered: 0, failed: 1 });
    transport.failing.clear();
    await exchange.send('a', 'c', 'second');
    expect((await exchange.receive('c')).map((m) => m.content)).toEqual(['first', 'second']);
    expect((await exchange.receive('b')).map((m) => m.content)).toEqual(['first']);
    expect(exchange.pendingCount).toBe(0);
  });

  it('drops in-flight copies whose recipient left', async () => {
    const { exchange, transport } = await flaky();
    transport.failing.add('c');
    await exchange.send('a', null, 'x');
    await exchange.unregister('c');
    expect(await exchange.drainPending()).toMatchObject({ delivered: 0, dropped: 1 });
    expect(exchange.pendingCount).toBe(0);
  });

  it('wakes a waiter when mail arrives', async () => {
    const exchange = new Exchange();
    await exchange.register('a');
    await exchange.register('b');
    const waiting = exchange.waitForMail('b', { timeoutMs: 10_000 });
    await exchange.send('a', 'b', 'ping');
    expect(await waiting).toBe(true);
  });
});
