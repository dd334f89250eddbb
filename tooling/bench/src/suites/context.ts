import { Branch } from '@bough/core';
import { type BenchRow, type BenchSuite, pairedMedians, timeMedian, unmeasured } from '../harness.js';
import { count, loadExport } from './support.js';

const suite = 'context+messenger';

type ContextHandler = (branch: Branch, request: unknown) => Promise<Record<string, unknown>>;

interface ExchangeLike {
  register(owner: string): Promise<void>;
  send(sender: string, recipient: string | null, content: string): Promise<unknown>;
  collect(owner: string): Promise<unknown>;
  popMany(owner: string, options?: { limit?: number }): Promise<unknown[]>;
}

function filledBranch(messages: number): Branch {
  const branch = new Branch({ system: 'You are a benchmark.' });
  const text = 'Some ordinary message text of a few words, long enough to be counted as tokens. '.repeat(3);
  for (let i = 1; i < messages; i++)
    branch.addMessage({ role: i % 2 ? 'user' : 'assistant', content: `${i}: ${text}` });
  return branch;
}

async function contextRows(scale: number, log: (message: string) => void): Promise<BenchRow[]> {
  const loaded = await loadExport<ContextHandler>('@bough/context', 'handleContext');
  const size = 10_000;
  const span = 1_000;
  if (!loaded.ok) return [unmeasured(suite, `context status, ${count(size)} messages`, 'ms', loaded.reason)];
  const handle = loaded.value;
  log(`context on a branch of ${count(size)} messages`);
  const branch = filledBranch(size);
  const status = { action: 'status' };
  const t0 = performance.now();
  const first = await handle(branch, status);
  const cold = performance.now() - t0;
  if (first.success === false) throw new Error(`context status failed: ${String(first.error)}`);
  const warm = await timeMedian(() => handle(branch, status), Math.max(11, Math.round(51 * scale)), 3);
  const rows: BenchRow[] = [
    { suite, name: `context status, ${count(size)} messages, first call`, unit: 'ms', ours: cold },
    {
      suite,
      name: `context status, ${count(size)} messages, warm`,
      unit: 'ms',
      ours: warm,
      peer: 5,
      peerLabel: 'limit',
      goal: '≤ 5 ms',
      met: warm <= 5,
    },
  ];
  const evict = { action: 'evict', start: 100, end: 100 + span };
  const restore = { action: 'restore', start: 100, end: 100 + span };
  const ids = branch.messages.slice(100, 100 + span).map((m) => m.id);
  const [ours, core] = await pairedMedians(
    async () => {
      const a = await handle(branch, evict);
      const b = await handle(branch, restore);
      if (a.success === false || b.success === false)
        throw new Error(`evict/restore failed: ${String(a.error ?? b.error)}`);
    },
    () => {
      branch.evict(ids);
      branch.restore(ids);
    },
    11,
  );
  rows.push({
    suite,
    name: `context evict + restore of ${count(span)} messages (branch of ${count(size)})`,
    unit: 'ms',
    ours,
    peer: core,
    peerLabel: 'Branch.evict + Branch.restore directly',
  });
  return rows;
}

async function exchangeRows(scale: number, log: (message: string) => void): Promise<BenchRow[]> {
  const Exchange = await loadExport<new () => ExchangeLike>('@bough/messenger', 'Exchange');
  const total = Math.max(5_000, Math.round(100_000 * scale));
  const name = `Exchange: ${count(total)} messages between 10 owners`;
  const detail = `${count(total)} direct messages between 10 owners (send + collect + popMany)`;
  if (!Exchange.ok) return [unmeasured(suite, name, 'messages/s', Exchange.reason, { detail })];
  log(`exchange: ${count(total)} messages`);
  const owners = Array.from({ length: 10 }, (_, i) => `branch-${i}`);
  const content = 'status update: finished the parser, starting on the tests';

  const exchange = new Exchange.value();
  for (const owner of owners) await exchange.register(owner);
  let received = 0;
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const from = owners[i % 10] as string;
    await exchange.send(from, owners[(i + 3) % 10] as string, content);
    await exchange.collect(from);
    if (i % 1000 === 999) for (const owner of owners) received += (await exchange.popMany(owner)).length;
  }
  for (const owner of owners) received += (await exchange.popMany(owner)).length;
  const ours = (total * 1000) / (performance.now() - t0);

  // Reference: the same traffic through plain arrays (no ids, no copies, no transport interface).
  const outbox = new Map(owners.map((o) => [o, [] as { to: string; content: string }[]]));
  const inbox = new Map(owners.map((o) => [o, [] as { to: string; content: string }[]]));
  let plainReceived = 0;
  const t1 = performance.now();
  for (let i = 0; i < total; i++) {
    const from = owners[i % 10] as string;
    outbox.get(from)?.push({ to: owners[(i + 3) % 10] as string, content });
    for (const message of outbox.get(from)?.splice(0) ?? []) inbox.get(message.to)?.push(message);
    if (i % 1000 === 999) for (const owner of owners) plainReceived += inbox.get(owner)?.splice(0).length ?? 0;
    await Promise.resolve();
  }
  for (const owner of owners) plainReceived += inbox.get(owner)?.splice(0).length ?? 0;
  const plain = (total * 1000) / (performance.now() - t1);
  return [
    {
      suite,
      name,
      unit: 'messages/s',
      ours,
      peer: plain,
      peerLabel: 'plain in-memory arrays',
      lowerIsBetter: false,
      ...(received === total && plainReceived === total ? {} : { note: `received ${received} of ${total}` }),
    },
  ];
}

/** Context status and curation on a large branch, and exchange throughput (issue 7). */
export const contextSuite: BenchSuite = {
  name: 'context',
  async run({ scale, log }) {
    return [...(await contextRows(scale, log)), ...(await exchangeRows(scale, log))];
  },
};
