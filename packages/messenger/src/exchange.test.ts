import { describe, expect, it } from 'vitest';
import { Exchange, ExchangeError } from './exchange.js';
import type { Delivery } from './exchange-transport.js';
import { InMemoryTransport } from './memory-transport.js';

async function team(...owners: string[]): Promise<Exchange> {
  let clock = 1_000;
  const exchange = new Exchange({ now: () => clock++ });
  for (const owner of owners) await exchange.register(owner);
  return exchange;
}

describe('Exchange', () => {
  it('registers owners once and unregisters them', async () => {
    const exchange = await team('a', 'b');
    await expect(exchange.register('a')).rejects.toBeInstanceOf(ExchangeError);
    expect(await exchange.ownerIds()).toEqual(['a', 'b']);
    expect(await exchange.unregister('a')).toBe(true);
    expect(await exchange.unregister('a')).toBe(false);
    expect(await exchange.has('a')).toBe(false);
  });

  it('queues in the outbox until collect, then delivers to the recipient only', async () => {
    const exchange = await team('a', 'b', 'c');
    const message = await exchange.send('a', 'b', 'hello', { channel: 'ops' });
    expect(message).toMatchObject({ sender: 'a', recipient: 'b', content: 'hello', channel: 'ops' });
    expect(await exchange.receive('b')).toEqual([]);
    expect(await exchange.collect('a')).toEqual({ messages: 1, delivered: 1, dropped: 0, failed: 0 });
    expect(await exchange.receive('b')).toEqual([message]);
    expect(await exchange.receive('c')).toEqual([]);
  });

  it('refuses unknown senders and collecting for unknown owners', async () => {
    const exchange = await team('a');
    await expect(exchange.send('ghost', 'a', 'x')).rejects.toBeInstanceOf(ExchangeError);
    await expect(exchange.collect('ghost')).rejects.toBeInstanceOf(ExchangeError);
    expect(await exchange.receive('ghost')).toEqual([]);
  });

  it('broadcasts one message as a copy to every other owner', async () => {
    const exchange = await team('a', 'b', 'c');
    await exchange.send('a', null, 'all hands');
    expect(await exchange.collectAll()).toEqual({ messages: 1, delivered: 2, dropped: 0, failed: 0 });
    expect((await exchange.receive('b')).map((m) => m.content)).toEqual(['all hands']);
    expect((await exchange.receive('c')).map((m) => m.content)).toEqual(['all hands']);
    expect(await exchange.receive('a')).toEqual([]);
  });

  it('drops and counts direct mail to an unknown recipient', async () => {
    const exchange = await team('a');
    await exchange.send('a', 'nobody', 'lost');
    expect(await exchange.collect('a')).toMatchObject({ messages: 1, delivered: 0, dropped: 1 });
    expect(exchange.dropped).toBe(1);
  });

  it('pops FIFO, optionally from one sender, and peeks without removing', async () => {
    const exchange = await team('a', 'b', 'c');
    await exchange.send('a', 'c', 'a1');
    await exchange.send('b', 'c', 'b1');
    await exchange.send('a', 'c', 'a2');
    await exchange.collectAll();
    expect((await exchange.receive('c', 'a')).map((m) => m.content)).toEqual(['a1', 'a2']);
    expect((await exchange.pop('c', 'a'))?.content).toBe('a1');
    expect((await exchange.pop('c'))?.content).toBe('b1');
    expect((await exchange.pop('c'))?.content).toBe('a2');
    expect(await exchange.pop('c')).toBeUndefined();
  });

  it('keeps a delivery whose write failed in flight and delivers it with drainPending', async () => {
    class FlakyTransport extends InMemoryTransport {
      failures = 1;
      override async writeInbox(delivery: Delivery): Promise<void> {
        if (this.failures > 0) {
          this.failures -= 1;
          throw new Error('disk full');
        }
        return super.writeInbox(delivery);
      }
    }
    const transport = new FlakyTransport();
    const exchange = new Exchange({ transport });
    await exchange.register('a');
    await exchange.register('b');
    await exchange.send('a', 'b', 'important');
    expect(await exchange.collect('a')).toMatchObject({ delivered: 0, failed: 1 });
    expect(await exchange.receive('b')).toEqual([]);
    expect(await transport.pending()).toHaveLength(1);
    expect(await exchange.drainPending()).toMatchObject({ delivered: 1, failed: 0 });
    expect((await exchange.receive('b')).map((m) => m.content)).toEqual(['important']);
    expect(await transport.pending()).toHaveLength(0);
    expect(await exchange.drainPending()).toMatchObject({ delivered: 0 });
  });

  it('drops in-flight deliveries whose recipient left', async () => {
    const transport = new InMemoryTransport();
    const exchange = new Exchange({ transport });
    await exchange.register('b');
    const message = { id: 'm1', sender: 'a', recipient: 'b', content: 'x', channel: 'default', createdAt: 1 };
    await transport.stage([{ id: 'd1', to: 'b', message }]);
    await exchange.unregister('b');
    expect(await exchange.drainPending()).toMatchObject({ delivered: 0, dropped: 1 });
    expect(await transport.pending()).toEqual([]);
  });
});
