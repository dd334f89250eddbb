import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statfsSync } from 'node:fs';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { StartConditions } from './settle.js';

/** One line of BENCHMARKS.md: our figure beside the peer (or limit) measured in the same run. */
export interface BenchRow {
  readonly suite: string;
  /** A short name for the table line (at most 60 characters; a longer one is cut, and given in full in a note). */
  readonly name: string;
  /** What the row measures in full (sizes, flags, conditions): the report prints it once, as a numbered note. */
  readonly detail?: string;
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
  /** A remark on this run's figure (why it was not measured, what it includes): a numbered note, like `detail`. */
  readonly note?: string;
  /** Puts the row on a growth chart: `id` names the chart (grep, find, read, clone), `x` the size of the work. */
  readonly chart?: { readonly id: string; readonly x: number };
}

/** Shared state a suite receives. */
export interface BenchContext {
  /** A scratch directory, removed after the run. */
  readonly scratch: string;
  /** Scale factor (BENCH_SCALE env, default 1): lower it to make a quick run. */
  readonly scale: number;
  /** The disk and load when the suite started (see settle.ts); absent when a suite is run outside run.ts. */
  readonly conditions?: StartConditions;
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

/** How {@link timeCommand} runs a command. */
export interface CommandOptions {
  cwd?: string;
  okCodes?: number[];
  /** Pipe stdout into this process and discard it, instead of sending it to /dev/null. */
  drain?: boolean;
  /** Send stderr to an unlinked temporary file, as the search package does with ripgrep's debug log. */
  stderrToFile?: boolean;
}

/**
 * Where the search package keeps ripgrep's log (packages/search/src/internal/run-rg.ts, internal to it): /dev/shm when
 * it is a tmpfs with at least 1 GiB free, else the temp directory. The floor rows store stderr the same way.
 */
function logDir(): string {
  try {
    const fs = statfsSync('/dev/shm');
    if (process.platform === 'linux' && fs.type === 0x01021994 && fs.bavail * fs.bsize >= 1024 ** 3) return '/dev/shm';
  } catch {
    // no /dev/shm here
  }
  return tmpdir();
}

/** An unlinked temporary file's descriptor (the same way the search package stores ripgrep's log). */
function anonymousFile(): number {
  const dir = mkdtempSync(join(logDir(), 'bough-bench-'));
  try {
    return openSync(join(dir, 'stderr'), 'wx+', 0o600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function headOf(fd: number): string {
  const buffer = Buffer.alloc(2000);
  return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString();
}

/** Runs a command (argv, no shell unless argv[0] is 'sh') and resolves with its wall time in ms; rejects on non-zero exit. */
export function timeCommand(argv: readonly string[], options: CommandOptions = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const errFd = options.stderrToFile ? anonymousFile() : undefined;
    const t0 = performance.now();
    const child = spawn(argv[0] as string, argv.slice(1), {
      cwd: options.cwd,
      stdio: ['ignore', options.drain ? 'pipe' : 'ignore', errFd ?? 'pipe'],
    });
    // Read and discard stdout: some tools (ripgrep) stop at the first match when stdout is /dev/null.
    child.stdout?.resume();
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString();
    });
    child.on('error', (error) => {
      if (errFd !== undefined) closeSync(errFd);
      reject(error);
    });
    child.on('close', (code) => {
      if (errFd !== undefined) {
        stderr = headOf(errFd);
        closeSync(errFd);
      }
      const ok = options.okCodes ?? [0];
      if (code !== null && ok.includes(code)) resolve(performance.now() - t0);
      else reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr.slice(0, 500)}`));
    });
  });
}

/** Median wall time of a command over `runs` runs. */
export async function commandMedian(argv: readonly string[], runs = 5, options: CommandOptions = {}): Promise<number> {
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

/** A row for a figure that could not be measured in this run, with the reason in its note. */
export function unmeasured(
  suite: string,
  name: string,
  unit: string,
  note: string,
  extra: Partial<BenchRow> = {},
): BenchRow {
  return { suite, name, unit, ours: Number.NaN, ...extra, note };
}

/** Latency summary of a series of calls: median, 95th percentile (ms) and calls per second. */
export interface LatencySummary {
  readonly p50: number;
  readonly p95: number;
  readonly perSecond: number;
}

/**
 * Calls `fn` `calls` times in sequence (after `warmup` calls) and summarises the latencies; stops early once
 * `budgetMs` has passed and at least 10 calls were made, so a slow operation cannot stretch the whole run.
 */
export async function latencies(
  fn: () => Promise<unknown>,
  calls: number,
  warmup = 3,
  budgetMs = Number.POSITIVE_INFINITY,
): Promise<LatencySummary> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
    if (samples.length >= 10 && performance.now() - t0 > budgetMs) break;
  }
  const total = performance.now() - t0;
  return { p50: median(samples), p95: percentile(samples, 95), perSecond: (samples.length * 1000) / total };
}

/**
 * A full garbage collection on demand: `globalThis.gc` when node runs with --expose-gc, otherwise the same function
 * exposed at run time (V8's flag, then a fresh context that sees it).
 */
export function garbageCollector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * A settle hook for {@link pairedMedians} that leaves the process quiet: a full garbage collection, then waits until
 * the process has spent almost no CPU time over a short window (at most `maxMs`). Native memory held by collected
 * objects (e.g. parse trees of @ast-grep/napi) is freed by finalizers that run after the collection, on this process's
 * threads; without the wait that freeing lands in whatever is timed next (ours or a peer's child process competing
 * with it for the cores), which is then charged for the previous round's garbage.
 */
export function quiesce(maxMs = 3000): () => Promise<void> {
  const gc = garbageCollector();
  const windowMs = 50;
  return async () => {
    const until = performance.now() + maxMs;
    gc();
    for (;;) {
      const before = process.cpuUsage();
      await new Promise((resolve) => setTimeout(resolve, windowMs));
      const used = process.cpuUsage(before);
      // Under 10% of one core over the window: the finalizers are done.
      if ((used.user + used.system) / 1000 < windowMs * 0.1 || performance.now() >= until) break;
      gc();
    }
  };
}

/**
 * Times two functions in alternation after `warmup` rounds and returns both medians in ms; odd rounds run `b` first,
 * so neither side always runs on the cache or CPU state the other left. On a shared machine, alternation spreads load
 * changes and JIT/wasm tier-up evenly over both sides of a comparison.
 */
export async function pairedMedians(
  a: () => Promise<unknown> | unknown,
  b: () => Promise<unknown> | unknown,
  runs = 5,
  warmup = 1,
  /** Runs (and is awaited) before each timed call, outside the timing (e.g. a garbage collection, see {@link quiesce}). */
  settle?: () => Promise<void> | void,
): Promise<[number, number]> {
  const samplesA: number[] = [];
  const samplesB: number[] = [];
  const timed = async (fn: () => Promise<unknown> | unknown) => {
    await settle?.();
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  for (let i = 0; i < warmup + runs; i++) {
    let ta: number;
    let tb: number;
    if (i % 2 === 0) {
      ta = await timed(a);
      tb = await timed(b);
    } else {
      tb = await timed(b);
      ta = await timed(a);
    }
    if (i >= warmup) {
      samplesA.push(ta);
      samplesB.push(tb);
    }
  }
  return [median(samplesA), median(samplesB)];
}

/**
 * Operations per second of two functions measured in alternating rounds of about `roundMs` each (`a` first in even
 * rounds, `b` first in odd ones); the median round of each side is returned.
 */
export async function pairedOps(
  a: () => Promise<unknown> | unknown,
  b: () => Promise<unknown> | unknown,
  rounds = 6,
  roundMs = 250,
): Promise<[number, number]> {
  const round = async (fn: () => Promise<unknown> | unknown) => {
    let count = 0;
    const t0 = performance.now();
    const end = t0 + roundMs;
    while (performance.now() < end) {
      for (let i = 0; i < 100; i++) await fn();
      count += 100;
    }
    return (count * 1000) / (performance.now() - t0);
  };
  await round(a);
  await round(b);
  const opsA: number[] = [];
  const opsB: number[] = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      opsA.push(await round(a));
      opsB.push(await round(b));
    } else {
      opsB.push(await round(b));
      opsA.push(await round(a));
    }
  }
  return [median(opsA), median(opsB)];
}
