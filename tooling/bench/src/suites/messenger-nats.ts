import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { Exchange } from '@bough/messenger';
import { openNatsExchange } from '@bough/messenger-nats';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type BenchRow, type BenchSuite, percentile, unmeasured } from '../harness.js';
import { count } from './support.js';

const suite = 'messenger-nats';

/** Wall-clock milliseconds with sub-millisecond resolution, comparable between connections of this process. */
const now = (): number => performance.timeOrigin + performance.now();

interface Run {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

/** Throughput (first send to last receive) and send-to-receive latency of `total` messages. */
function summarise(total: number, started: number, finished: number, latencies: number[]): Run {
  return {
    perSecond: (total * 1000) / (finished - started),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startServer(storeDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  mkdirSync(storeDir, { recursive: true });
  const child: ChildProcess = spawn(
    process.env.NATS_SERVER ?? 'nats-server',
    ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir],
    { stdio: 'ignore' },
  );
  const failed = new Promise<never>((_, reject) => child.once('error', reject));
  const up = async (): Promise<void> => {
    for (let i = 0; i < 500; i++) {
      const ok = await new Promise<boolean>((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port });
        socket.once('connect', () => resolve(socket.destroy() !== undefined));
        socket.once('error', () => resolve(false));
      });
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('nats-server did not start');
  };
  await Promise.race([up(), failed]);
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** One sender and one receiver exchange (separate connections for NATS), sequential awaited sends. */
async function exchangeRun(sender: Exchange, receiver: Exchange, total: number, content: string): Promise<Run> {
  await sender.register('sender');
  await receiver.register('receiver');
  while (!(await sender.has('receiver'))) await new Promise((resolve) => setTimeout(resolve, 5));
  const latencies: number[] = [];
  const receiving = (async () => {
    while (latencies.length < total) {
      await receiver.waitForMail('receiver', { timeoutMs: 1_000 });
      for (const message of await receiver.popMany('receiver', { limit: 1_000 })) {
        latencies.push(now() - Number(message.content.slice(0, message.content.indexOf(' '))));
      }
    }
    return now();
  })();
  const started = now();
  for (let i = 0; i < total; i++) await sender.send('sender', 'receiver', `${now()} ${content}`);
  return summarise(total, started, await receiving, latencies);
}

/** The floor: the same client publishing to a stream (awaiting each ack) and a durable consumer acking each. */
async function bareRun(url: string, total: number, content: string): Promise<Run> {
  const pub = await connect({ servers: url });
  const sub = await connect({ servers: url });
  const jsm = await jetstreamManager(pub);
  await jsm.streams.add({ name: 'BARE', subjects: ['bare.>'] });
  await jsm.consumers.add('BARE', { durable_name: 'bare', ack_policy: AckPolicy.Explicit, filter_subject: 'bare.in' });
  const js = jetstream(pub);
  const consumer = await jetstream(sub).consumers.get('BARE', 'bare');
  const messages = await consumer.consume({ max_messages: 256 });
  const latencies: number[] = [];
  const receiving = (async () => {
    for await (const message of messages) {
      const text = message.string();
      latencies.push(now() - Number(text.slice(0, text.indexOf(' '))));
      message.ack();
      if (latencies.length >= total) break;
    }
    return now();
  })();
  const started = now();
  for (let i = 0; i < total; i++) await js.publish('bare.in', `${now()} ${content}`);
  const run = summarise(total, started, await receiving, latencies);
  await messages.close();
  await pub.close();
  await sub.close();
  return run;
}

/** The messenger's Exchange over NATS JetStream against the bare client loop and the in-memory transport (issue 21). */
export const messengerNatsSuite: BenchSuite = {
  name: suite,
  async run({ scratch, scale, log }) {
    const total = Math.max(500, Math.round(3_000 * scale));
    const content = 'status update: finished the parser, starting on the tests';
    const name = `Exchange over JetStream: ${count(total)} messages`;
    const detail = `${count(total)} direct messages, each send awaited until it is received`;
    let server: { url: string; stop: () => Promise<void> };
    try {
      server = await startServer(join(scratch, 'nats'));
    } catch (error) {
      return [unmeasured(suite, name, 'messages/s', `nats-server could not start: ${String(error)}`, { detail })];
    }
    try {
      log(`bare JetStream loop: ${count(total)} messages`);
      const bare = await bareRun(server.url, total, content);
      log(`Exchange over JetStream: ${count(total)} messages`);
      const a = await openNatsExchange({ name: 'bench', servers: server.url });
      const b = await openNatsExchange({ name: 'bench', servers: server.url });
      if (!a.success || !b.success) throw new Error('could not open the exchange');
      const nats = await exchangeRun(a.exchange, b.exchange, total, content);
      await a.exchange.close();
      await b.exchange.close();
      log(`Exchange in memory: ${count(total)} messages`);
      const memory = new Exchange();
      const inMemory = await exchangeRun(memory, memory, total, content);
      const ratio = nats.perSecond / bare.perSecond;
      const rows: BenchRow[] = [
        {
          suite,
          name,
          detail,
          unit: 'messages/s',
          ours: nats.perSecond,
          peer: bare.perSecond,
          peerLabel: 'bare publish (awaited ack) + durable consumer, same client',
          goal: '≥ 0.5× the bare loop',
          met: ratio >= 0.5,
          note: `${ratio.toFixed(2)}× the bare loop; durable inboxes, hand-over records, roster checks included`,
        },
        {
          suite,
          name: 'Exchange over JetStream: send → receive latency p50',
          unit: 'ms',
          ours: nats.p50,
          peer: bare.p50,
          peerLabel: 'bare loop p50',
          lowerIsBetter: true,
        },
        {
          suite,
          name: 'Exchange over JetStream: send → receive latency p99',
          unit: 'ms',
          ours: nats.p99,
          peer: bare.p99,
          peerLabel: 'bare loop p99',
          lowerIsBetter: true,
          goal: '< 20 ms',
          met: nats.p99 < 20,
        },
        {
          suite,
          name: `Exchange in memory: ${count(total)} messages`,
          detail,
          unit: 'messages/s',
          ours: inMemory.perSecond,
          peer: nats.perSecond,
          peerLabel: 'the same Exchange over JetStream',
          note: `in-memory latency p50 ${inMemory.p50.toFixed(3)} ms, p99 ${inMemory.p99.toFixed(3)} ms`,
        },
      ];
      return rows;
    } finally {
      await server.stop();
    }
  },
};
