import { spawn } from 'node:child_process';
import { cpus, freemem, totalmem } from 'node:os';

/** One line of BENCHMARKS.md: our figure beside the peer (or limit) measured in the same run. */
export interface BenchRow {
  readonly suite: string;
  readonly name: string;
  /** What the figure measures, e.g. "ms per call" or "calls/s". */
  readonly unit: string;
  readonly ours: number;
  /** The peer's figure in the same unit, when there is one. */
  readonly peer?: number;
  readonly peerLabel?: string;
  /** For units where lower is better, ratio = ours / peer; for rates, peer / ours is reported the same way. */
  readonly lowerIsBetter?: boolean;
  /** The goal as text, e.g. "≤ 1.2×" or "≤ 50 ms". */
  readonly goal?: string;
  /** Whether the goal was met, when it can be judged. */
  readonly met?: boolean;
  readonly note?: string;
}

/** Shared state a suite receives. */
export interface BenchContext {
  /** A scratch directory, removed after the run. */
  readonly scratch: string;
  /** Scale factor (BENCH_SCALE env, default 1): lower it to make a quick run. */
  readonly scale: number;
  log(message: string): void;
}

/** A named suite of benchmarks. */
export interface BenchSuite {
  readonly name: string;
  run(context: BenchContext): Promise<BenchRow[]>;
}

/** Median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Percentile (0–100) of a list of numbers. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

/** Times an async function `runs` times (after `warmup` runs) and returns the median in milliseconds. */
export async function timeMedian(fn: () => Promise<unknown> | unknown, runs = 5, warmup = 1): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

/** Runs `fn` in a tight loop for about `durationMs` and returns operations per second (median of 3 rounds). */
export async function opsPerSecond(fn: () => Promise<unknown> | unknown, durationMs = 500): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < 3; round++) {
    let count = 0;
    const end = performance.now() + durationMs;
    const t0 = performance.now();
    while (performance.now() < end) {
      for (let i = 0; i < 100; i++) await fn();
      count += 100;
    }
    rounds.push((count * 1000) / (performance.now() - t0));
  }
  return median(rounds);
}

/** Runs a command (argv, no shell unless argv[0] is 'sh') and resolves with its wall time in ms; rejects on non-zero exit. */
export function timeCommand(
  argv: readonly string[],
  options: { cwd?: string; okCodes?: number[] } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(argv[0] as string, argv.slice(1), { cwd: options.cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ok = options.okCodes ?? [0];
      if (code !== null && ok.includes(code)) resolve(performance.now() - t0);
      else reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr.slice(0, 500)}`));
    });
  });
}

/** Median wall time of a command over `runs` runs. */
export async function commandMedian(
  argv: readonly string[],
  runs = 5,
  options: { cwd?: string; okCodes?: number[] } = {},
): Promise<number> {
  const samples: number[] = [];
  await timeCommand(argv, options);
  for (let i = 0; i < runs; i++) samples.push(await timeCommand(argv, options));
  return median(samples);
}

/** A one-line description of this machine for the report. */
export function machineDescription(): string {
  const cpu = cpus();
  return `${cpu[0]?.model ?? 'unknown CPU'} × ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM (${(
    freemem() / 2 ** 30
  ).toFixed(1)} GiB free at start), Node ${process.version}, ${process.platform}/${process.arch}`;
}
