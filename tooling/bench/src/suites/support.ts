import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file runs from tooling/bench/dist/suites). */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Resolves packages the way the bench package itself would. */
export const benchRequire = createRequire(import.meta.url);

/** A handler of the `handle<Tool>(request, options)` convention, typed loosely so a missing export is a value. */
export type LooseHandler = (request: unknown, options: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Either the export that was asked for, or why it could not be loaded. */
export type Loaded<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Imports `name` from a package at run time, so a package that is still being written (or not built) turns into a
 * note on the report instead of a failed compile or a crashed run.
 */
export async function loadExport<T = LooseHandler>(specifier: string, name: string): Promise<Loaded<T>> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    return {
      ok: false,
      reason: `${specifier} could not be loaded (${String((error as Error).message).slice(0, 120)})`,
    };
  }
  const value = mod[name];
  if (value === undefined) return { ok: false, reason: `${specifier} does not export ${name} yet` };
  return { ok: true, value: value as T };
}

/** Deterministic pseudo-random numbers (mulberry32), so generated inputs are the same on every run. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bytes per line of {@link writeNumberedLines}: a 10-digit line number, a space, filler and a newline. */
export const LINE_BYTES = 50;
const FILLER = ' the quick brown fox jumps over a lazy dog'.padEnd(LINE_BYTES - 11, '.').slice(0, LINE_BYTES - 11);

/** The text of line `n` (1-based) of a file written by {@link writeNumberedLines}, without its newline. */
export function numberedLine(n: number): string {
  return String(n).padStart(10, '0') + FILLER;
}

/**
 * Writes `lines` lines of {@link LINE_BYTES} bytes each, in large chunks; each line starts with its 1-based number so
 * a window can be checked. `marker` replaces the filler of one line, to make a unique edit target.
 */
export function writeNumberedLines(path: string, lines: number, marker?: { line: number; text: string }): void {
  mkdirSync(dirname(path), { recursive: true });
  const perChunk = 1 << 16;
  const template = Buffer.alloc(perChunk * LINE_BYTES);
  for (let i = 0; i < perChunk; i++) template.write(`${numberedLine(0)}\n`, i * LINE_BYTES, 'latin1');
  const fd = openSync(path, 'w');
  try {
    for (let first = 1; first <= lines; first += perChunk) {
      const count = Math.min(perChunk, lines - first + 1);
      for (let i = 0; i < count; i++) template.write(String(first + i).padStart(10, '0'), i * LINE_BYTES, 'latin1');
      if (marker && marker.line >= first && marker.line < first + count) {
        const at = (marker.line - first) * LINE_BYTES + 10;
        template.write(marker.text.padEnd(LINE_BYTES - 11, '.').slice(0, LINE_BYTES - 11), at, 'latin1');
        writeSync(fd, template, 0, count * LINE_BYTES);
        template.write(FILLER, at, 'latin1');
      } else {
        writeSync(fd, template, 0, count * LINE_BYTES);
      }
    }
  } finally {
    closeSync(fd);
  }
}

const WORDS = (
  'alpha beta gamma delta value result config handler request response buffer stream parse render update ' +
  'index count total offset limit cursor token branch message worker queue state cache entry record field'
).split(' ');

/** A buffer of plausible source-like lines (no needles), used as the body of generated files. */
export function sourcePool(bytes: number, seed = 1): Buffer {
  const rand = prng(seed);
  const word = () => WORDS[Math.floor(rand() * WORDS.length)] as string;
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const n = Math.floor(rand() * 1000);
    const line =
      rand() < 0.5
        ? `  const ${word()}_${n} = ${word()}(${word()}, ${n}); // ${word()} ${word()} ${word()}\n`
        : `export function ${word()}${n}(${word()}: number): string { return ${word()}.${word()}(${n}); }\n`;
    parts.push(line);
    size += line.length;
  }
  return Buffer.from(parts.join(''), 'latin1');
}

/** What {@link generateTree} wrote. */
export interface TreeStats {
  files: number;
  bytes: number;
  literalHits: number;
  regexHits: number;
  markdownFiles: number;
}

/** The literal and the regex that generated trees plant, and a regex the planted text matches. */
export const NEEDLE_LITERAL = 'NEEDLE_LITERAL_7f3a';
export const NEEDLE_REGEX = 'needle_[0-9]{4}_[a-z]+_end';

/**
 * Generates a tree of `files` small files (sizes spread around `avgBytes`) plus `largeFiles` files of `largeBytes`,
 * 50 files per directory, 1% of them markdown. Bodies are slices of one pool buffer, so writing is cheap; every 97th
 * file carries the literal needle and every 89th the regex needle.
 */
export function generateTree(
  root: string,
  options: { files: number; avgBytes: number; largeFiles?: number; largeBytes?: number; seed?: number },
): TreeStats {
  const rand = prng(options.seed ?? 7);
  const pool = sourcePool(4 * 2 ** 20, options.seed ?? 7);
  const stats: TreeStats = { files: 0, bytes: 0, literalHits: 0, regexHits: 0, markdownFiles: 0 };
  const exts = ['ts', 'js', 'py', 'txt', 'ts', 'js', 'json'];
  let dir = '';
  for (let i = 0; i < options.files; i++) {
    if (i % 50 === 0) {
      dir = join(root, `pkg${Math.floor(i / 5000)}`, `mod${Math.floor(i / 50) % 100}`);
      mkdirSync(dir, { recursive: true });
    }
    const size = Math.max(64, Math.floor(options.avgBytes * (0.25 + 1.5 * rand())));
    const start = Math.floor(rand() * (pool.length - size));
    let body = pool.subarray(start, start + size);
    const extra: string[] = [];
    if (i % 97 === 0) {
      extra.push(`// ${NEEDLE_LITERAL} planted\n`);
      stats.literalHits++;
    }
    if (i % 89 === 0) {
      extra.push(`const tag = "needle_${String(i % 10000).padStart(4, '0')}_planted_end";\n`);
      stats.regexHits++;
    }
    if (extra.length) body = Buffer.concat([body, Buffer.from(`\n${extra.join('')}`)]);
    const ext = i % 100 === 42 ? 'md' : (exts[i % exts.length] as string);
    if (ext === 'md') stats.markdownFiles++;
    writeFileSync(join(dir, `file${i}.${ext}`), body);
    stats.files++;
    stats.bytes += body.length;
  }
  const large = options.largeFiles ?? 0;
  if (large > 0) {
    const largeDir = join(root, 'data');
    mkdirSync(largeDir, { recursive: true });
    for (let j = 0; j < large; j++) {
      const path = join(largeDir, `large${j}.log`);
      const fd = openSync(path, 'w');
      let written = 0;
      const target = options.largeBytes ?? 2 ** 20;
      while (written < target) {
        const n = Math.min(pool.length, target - written);
        writeSync(fd, pool, 0, n);
        written += n;
      }
      const tail = `\n// ${NEEDLE_LITERAL} in a large file\nneedle_9999_large_end\n`;
      writeSync(fd, tail);
      closeSync(fd);
      stats.literalHits++;
      stats.regexHits++;
      stats.files++;
      stats.bytes += written + tail.length;
    }
  }
  return stats;
}

/** Formats a count for a benchmark name. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Formats a byte size for a benchmark name, in decimal units (1 MB = 10^6 bytes). */
export function size(bytes: number): string {
  const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 2 : 1));
  if (bytes >= 1e9) return `${fmt(bytes / 1e9)} GB`;
  if (bytes >= 1e6) return `${fmt(bytes / 1e6)} MB`;
  return `${fmt(bytes / 1e3)} kB`;
}

/** Regular files under `root`, counted by walking it (links not followed). */
export function filesUnder(root: string): number {
  let files = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.isFile()) files++;
    }
  };
  walk(root);
  return files;
}

/** A language standard library on this machine (python3's, the smallest found), or undefined. */
export function findStdlib(): { root: string; files: number } | undefined {
  const candidates = new Set<string>();
  const asked = spawnSync('python3', ['-c', 'import os; print(os.path.dirname(os.__file__))'], { encoding: 'utf8' });
  if (asked.status === 0 && asked.stdout.trim()) candidates.add(asked.stdout.trim());
  try {
    for (const name of readdirSync('/usr/lib')) if (/^python3\.\d+$/.test(name)) candidates.add(join('/usr/lib', name));
  } catch {
    // no /usr/lib
  }
  let best: { root: string; files: number } | undefined;
  for (const root of candidates) {
    if (!existsSync(join(root, 'os.py'))) continue;
    const files = filesUnder(root);
    if (files <= 60_000 && (!best || files < best.files)) best = { root, files };
  }
  return best;
}
