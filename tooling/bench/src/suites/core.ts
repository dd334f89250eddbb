import { Branch, branchProvider, defineTool, ToolRegistry } from '@bough/core';
import { z } from 'zod';
import { type BenchRow, type BenchSuite, pairedOps, timeMedian } from '../harness.js';

const noopRequest = z.object({ n: z.number().int().optional() }).strict();

function noop(name: string) {
  return defineTool({
    name,
    description: 'Does nothing; measures the registry and executor overhead.',
    request: noopRequest,
    handler: async () => null,
  });
}

function bigBranch(messages: number, tools: number): Branch {
  const branch = new Branch({ system: 'bench' });
  const stateless = Array.from({ length: tools / 2 }, (_, i) => noop(`s${i}`));
  const bound = branchProvider('bound', ({ branch: b }) =>
    Array.from({ length: tools / 2 }, (_, i) =>
      defineTool({
        name: `b${i}`,
        description: 'Bound to a branch; rebuilt on clone for the benchmark.',
        request: noopRequest,
        scope: 'branch',
        handler: async () => b.id,
      }),
    ),
  );
  branch.registerTools([...stateless, bound]);
  for (let i = 1; i < messages; i++)
    branch.addMessage({ role: i % 2 ? 'user' : 'assistant', content: `message ${i} with some text` });
  branch.evict(branch.activeIds().slice(1, messages / 4));
  return branch;
}

/** Registry invoke throughput and Branch.clone cost (issue 2). */
export const coreSuite: BenchSuite = {
  name: 'core',
  async run({ scale, log }) {
    const rows: BenchRow[] = [];
    const registry = new ToolRegistry();
    registry.register(noop('noop'));
    const args = { n: 1 };
    // The peer is the handler alone: the same async no-op called with the same arguments, nothing built per call.
    const handler = async (_args: unknown): Promise<null> => null;
    const [bare, direct] = await pairedOps(
      () => registry.invoke('noop', args),
      () => handler(args),
    );
    rows.push({
      suite: 'core',
      name: 'registry.invoke of a no-op tool (validation, no hooks)',
      unit: 'calls/s',
      ours: bare,
      peer: direct,
      peerLabel: 'a bare async handler call',
      lowerIsBetter: false,
      goal: '≥ 200,000/s',
      met: bare >= 200_000,
    });
    const loose = new ToolRegistry();
    loose.register(
      defineTool({
        name: 'loose',
        description: 'Accepts anything; measures the executor without schema work.',
        request: z.unknown(),
        handler: async () => null,
      }),
    );
    const [unvalidated, directAgain] = await pairedOps(
      () => loose.invoke('loose', args),
      () => handler(args),
    );
    rows.push({
      suite: 'core',
      name: 'registry.invoke with a pass-through schema',
      detail: 'no validation work',
      unit: 'calls/s',
      ours: unvalidated,
      peer: directAgain,
      peerLabel: 'a bare async handler call',
      lowerIsBetter: false,
    });
    const hooked = new ToolRegistry();
    hooked.register(noop('noop'));
    hooked.addHooks('*', { pre: [() => undefined], post: [() => undefined] });
    const [withHooks, withoutHooks] = await pairedOps(
      () => hooked.invoke('noop', args),
      () => registry.invoke('noop', args),
    );
    rows.push({
      suite: 'core',
      name: 'registry.invoke with one pre and one post hook',
      unit: 'calls/s',
      ours: withHooks,
      peer: withoutHooks,
      peerLabel: 'same without hooks',
      lowerIsBetter: false,
    });
    for (const size of [1_000, 10_000, 100_000].map((n) => Math.max(100, Math.round(n * scale)))) {
      const branch = bigBranch(size, 20);
      log(`clone of ${size} messages`);
      const ms = await timeMedian(() => branch.clone(), size >= 100_000 ? 3 : 7);
      rows.push({
        suite: 'core',
        name: `Branch.clone, ${size.toLocaleString('en-US')} messages, 20 tools`,
        unit: 'ms',
        ours: ms,
        chart: { id: 'clone', x: size },
        ...(size === 10_000 ? { goal: '≤ 50 ms', met: ms <= 50 } : {}),
      });
    }
    return rows;
  },
};
