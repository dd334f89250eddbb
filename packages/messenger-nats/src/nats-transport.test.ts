import { TransportUnavailableError } from '@bough/messenger';
import { startNatsServer, type TestNatsServer, takeAll, until } from '@bough/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NatsExchange, openNatsExchange } from './index.js';

let server: TestNatsServer;
const opened: NatsExchange[] = [];
beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  for (const member of opened) await member.exchange.close();
  await server?.close();
});

async function open(name: string, limits: Record<string, number> = {}): Promise<NatsExchange> {
  const result = await openNatsExchange({ name, servers: server.url, limits });
  if (!result.success) throw new Error(result.error);
  opened.push(result);
  return result;
}

describe('NATS exchange', () => {
  it('refuses names that are not one subject token, and unreachable servers, as values', async () => {
    for (const name of ['', 'a.b', 'a*', '>', 'a b', 'x'.repeat(65)]) {
      expect(await openNatsExchange({ name, servers: server.url })).toMatchObject({
        success: false,
        error_code: 'invalid_name',
      });
    }
    const port = server.port === 65_535 ? 1 : server.port + 1;
    const down = await openNatsExchange({
      name: 'ok',
      servers: `nats://127.0.0.1:${port}`,
      limits: { requestTimeoutMs: 1_000 },
    });
    expect(down).toMatchObject({ success: false, error_code: 'transport_unavailable' });
  });

  it('opens while live holders keep renewing the roster: catching up does not wait for a quiet moment', async () => {
    // Twenty owners on a 150 ms lease renew every 50 ms: the roster gains a record every few milliseconds, so a
    // newcomer's watcher is rarely handed a record with nothing after it.
    const holders = await open('busy-roster', { leaseMs: 150, ackWaitMs: 100 });
    for (let i = 0; i < 20; i += 1) await holders.exchange.register(`h${i}`);
    for (let round = 0; round < 5; round += 1) {
      const result = await openNatsExchange({
        name: 'busy-roster',
        servers: server.url,
        limits: { leaseMs: 150, ackWaitMs: 100, requestTimeoutMs: 2_000 },
      });
      expect(result).toMatchObject({ success: true });
      if (!result.success) continue;
      opened.push(result);
      expect((await result.exchange.ownerIds()).length).toBe(20);
    }
  });

  it('keeps exchanges apart: the same owner ids on two names never see each other', async () => {
    const x = await open('iso-x');
    const y = await open('iso-y');
    for (const member of [x, y]) {
      await member.exchange.register('a');
      await member.exchange.register('b');
    }
    await x.exchange.send('a', 'b', 'for x');
    await y.exchange.send('a', null, 'for y');
    expect((await takeAll(x.exchange, 'b', 1)).map((m) => m.content)).toEqual(['for x']);
    expect((await takeAll(y.exchange, 'b', 1)).map((m) => m.content)).toEqual(['for y']);
    expect(await x.exchange.waitForMail('b', { timeoutMs: 200 })).toBe(false);
  });

  it('encodes owner ids, so dots, wildcards and spaces stay inside one inbox', async () => {
    const team = await open('odd-ids');
    const ids = ['a.b', 'a.*', 'a >', 'ä/ü'];
    for (const id of ids) await team.exchange.register(id);
    for (const id of ids) await team.exchange.send(ids[0] as string, id, `to ${id}`);
    for (const id of ids) expect((await takeAll(team.exchange, id, 1)).map((m) => m.content)).toEqual([`to ${id}`]);
    await expect(team.exchange.register('x'.repeat(129))).rejects.toBeInstanceOf(RangeError);
  });

  it('hands a message over once even when JetStream delivers it again, also after the holder restarts', async () => {
    const sender = await open('redeliver');
    const first = await open('redeliver');
    await sender.exchange.register('s');
    await first.exchange.register('r');
    const message = await sender.exchange.send('s', 'r', 'once');
    expect((await takeAll(first.exchange, 'r', 1)).map((m) => m.id)).toEqual([message.id]);
    // Store the same message again under another publish id: the broker keeps both copies and offers the second.
    await sender.transport.writeInbox({ id: `${message.id}:again`, to: 'r', message });
    await sender.exchange.send('s', 'r', 'marker-1');
    expect((await takeAll(first.exchange, 'r', 1)).map((m) => m.content)).toEqual(['marker-1']);
    // A restarted holder reloads the hand-over records and drops the copy too.
    await first.exchange.close();
    await sender.transport.writeInbox({ id: `${message.id}:third`, to: 'r', message });
    const second = await open('redeliver');
    await second.exchange.register('r');
    await sender.exchange.send('s', 'r', 'marker-2');
    expect((await takeAll(second.exchange, 'r', 1)).map((m) => m.content)).toEqual(['marker-2']);
  });

  it('keeps mail for an offline member and frees a crashed holder’s name after its lease', async () => {
    const lead = await open('lease', { leaseMs: 600, ackWaitMs: 600 });
    await lead.exchange.register('lead');
    const { connect } = await import('@nats-io/transport-node');
    const connection = await connect({ servers: server.url });
    const crashed = await openNatsExchange({ name: 'lease', connection, limits: { leaseMs: 600, ackWaitMs: 600 } });
    if (!crashed.success) throw new Error(crashed.error);
    await crashed.exchange.register('w');
    await lead.exchange.send('lead', 'w', 'before');
    await until(async () => (await crashed.exchange.receive('w')).length === 1, 'the buffered message');
    // The holder's connection dies without letting go: no release, no more heartbeats.
    await connection.close();
    await lead.exchange.send('lead', 'w', 'while down');
    const next = await open('lease', { leaseMs: 600, ackWaitMs: 600 });
    await expect(next.exchange.register('w')).rejects.toThrow(/already registered/);
    await until(async () => {
      try {
        await next.exchange.register('w');
        return true;
      } catch {
        return false;
      }
    }, 'the lease to run out');
    expect((await takeAll(next.exchange, 'w', 2)).map((m) => m.content)).toEqual(['before', 'while down']);
  });

  it('fails typed during a broker outage and loses nothing after the restart', async () => {
    const a = await open('outage');
    const b = await open('outage');
    await a.exchange.register('a');
    await b.exchange.register('b');
    await a.exchange.send('a', 'b', 'm1');
    await server.stop();
    await expect(a.exchange.send('a', 'b', 'lost')).rejects.toBeInstanceOf(TransportUnavailableError);
    await server.start();
    await until(async () => {
      try {
        await a.exchange.send('a', 'b', 'm2');
        return true;
      } catch (error) {
        if (!(error instanceof TransportUnavailableError)) throw error;
        return false;
      }
    }, 'the reconnect');
    await a.exchange.send('a', null, 'm3');
    // b reconnects on its own schedule: until it has, taking mail fails typed (nothing is taken), then succeeds.
    let got: { content: unknown }[] = [];
    await until(async () => {
      try {
        got = await takeAll(b.exchange, 'b', 3);
        return true;
      } catch (error) {
        if (!(error instanceof TransportUnavailableError)) throw error;
        return false;
      }
    }, 'the second member to reconnect');
    expect(got.map((m) => m.content)).toEqual(['m1', 'm2', 'm3']);
    expect(await b.exchange.waitForMail('b', { timeoutMs: 300 })).toBe(false);
  });
});
