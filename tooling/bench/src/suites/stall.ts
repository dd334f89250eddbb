import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSuite } from '../harness.js';

// The probe runs the built `bough mcp --http` in its own process (session A's heavy call and session B's listings
// must share that server's event loop, not the bench's), so it is a script this suite starts once per case.
const PROBE = fileURLToPath(new URL('../../scripts/stall-probe.mjs', import.meta.url));

/** What the probe prints for one case. */
interface ProbeResult {
  a_ms: number;
  idle_max_ms: number;
  b_calls: number;
  b_max_ms: number;
  b_p50_ms: number;
  /** The server's longest event-loop pause during the heavy call: wall time, and the CPU it spent in it. */
  pause_wall_ms: number;
  pause_cpu_ms: number;
  load: string[];
}

const CASES: Array<{ id: string; what: string }> = [
  { id: 'patch', what: 'an 80,000-hunk patch' },
  { id: 'miss', what: 'a 501-line edit miss in 50,000 lines' },
  { id: 'flat', what: 'a 3,001-char edit miss in 2 MB of one letter' },
];

/** Session B's slowest `tools/list` while session A's heavy editor call runs on the same HTTP server. */
export const stallSuite: BenchSuite = {
  name: 'stall',
  async run(context) {
    const rows: BenchRow[] = [];
    for (const c of CASES) {
      const run = spawnSync(process.execPath, [PROBE, c.id], { encoding: 'utf8', timeout: 600_000 });
      const last = run.stdout.trim().split('\n').at(-1) ?? '';
      if (run.status !== 0 || !last.startsWith('{')) {
        context.log(`stall probe ${c.id} failed: ${run.stderr.slice(-300)}`);
        continue;
      }
      const r = JSON.parse(last) as ProbeResult;
      rows.push({
        suite: 'stall',
        name: `tools/list max latency in another session during ${c.what}`,
        unit: 'ms',
        ours: r.b_max_ms,
        lowerIsBetter: true,
        goal: '≤ 100 ms',
        met: r.b_max_ms <= 100,
        note:
          `idle max ${r.idle_max_ms} ms; p50 ${r.b_p50_ms} ms over ${r.b_calls} calls; the heavy call ${r.a_ms} ms; ` +
          `the server's longest event-loop pause ${r.pause_wall_ms} ms (${r.pause_cpu_ms} ms of its CPU); load ${r.load.join(' ')}`,
      });
    }
    return rows;
  },
};
