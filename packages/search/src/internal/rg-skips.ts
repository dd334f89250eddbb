import type { RgRun } from './run-rg.js';

// Counts what ripgrep left out, read from its `--debug` log on stderr, and keeps its real messages apart.
// ripgrep logs one "ignoring PATH: REASON" line for every walk entry it skips (an ignored directory once, not its
// contents) and for every file it stops reading because it is binary. Nothing else in the log is per file, so the
// log stays small. If a future ripgrep words these lines differently the counts read 0; nothing else depends on them.

const DEBUG_PREFIX = 'rg: DEBUG|';
// Cap on the non-debug stderr text kept for error messages; ripgrep's own errors are a few lines.
const MAX_MESSAGE_BYTES = 8192;
// A debug line longer than this is not one ripgrep wrote about a path we care about; drop the partial line.
const MAX_PENDING_BYTES = 64 * 1024;

const TOO_LARGE = /: \d+ bytes$/;
const BINARY = /: found binary data at offset \d+$/;
const IGNORE_FILE = /: Ignore\(IgnoreMatch\(Gitignore\(/;
const EXCLUDED_BY_GLOB = /: Ignore\(IgnoreMatch\(Override\(Glob\(Matched\(Glob \{ from: None, original: "!([^"]*)"/;

/** What ripgrep skipped during one run, by reason. */
export interface RgSkipCounts {
  /** Files or directories hidden by .gitignore / .ignore / .rgignore rules (a directory counts once). */
  readonly ignored: number;
  /** Files over `--max-filesize`, never read. */
  readonly tooLarge: number;
  /** Binary files whose lines are not shown (never read past the first NUL, or hidden after a match). */
  readonly binary: number;
  /** Files never opened because an exclusion glob for a protected name matched them. */
  readonly protectedFiles: number;
}

/** Consumes ripgrep's stderr (with `--debug`) chunk by chunk; never holds more than a line plus the message cap. */
export class RgSkipTally {
  #pending = '';
  #messages = '';
  #ignored = 0;
  #tooLarge = 0;
  #protectedFiles = 0;
  readonly #binary = new Set<string>();
  readonly #hiddenGlobs: ReadonlySet<string>;

  /** `notCounted` lists exclusion globs (without the `!`) that are not protected names, such as `.git`. */
  constructor(notCounted: readonly string[] = ['.git']) {
    this.#hiddenGlobs = new Set(notCounted);
  }

  /** Feeds one stderr chunk. */
  push(chunk: Buffer): void {
    const lines = (this.#pending + chunk.toString('utf8')).split('\n');
    this.#pending = lines.pop() ?? '';
    if (this.#pending.length > MAX_PENDING_BYTES) this.#pending = '';
    for (const line of lines) this.#line(line);
  }

  /** Records a binary file that ripgrep reported on stdout rather than in its log. */
  noteBinary(path: string): void {
    this.#binary.add(normalise(path));
  }

  /** Counts so far (call after the process ended to include a last unterminated line). */
  counts(): RgSkipCounts {
    if (this.#pending !== '') {
      this.#line(this.#pending);
      this.#pending = '';
    }
    return {
      ignored: this.#ignored,
      tooLarge: this.#tooLarge,
      binary: this.#binary.size,
      protectedFiles: this.#protectedFiles,
    };
  }

  /** ripgrep's stderr without its debug log: the text to show or classify when it reports an error. */
  messages(): string {
    return this.#messages;
  }

  #line(line: string): void {
    if (!line.startsWith(DEBUG_PREFIX)) {
      if (this.#messages.length < MAX_MESSAGE_BYTES) this.#messages += `${line}\n`;
      return;
    }
    const at = line.indexOf(': ignoring ');
    if (at < 0) return;
    const rest = line.slice(at + ': ignoring '.length);
    if (TOO_LARGE.test(rest)) this.#tooLarge++;
    else if (BINARY.test(rest)) this.#binary.add(normalise(rest.replace(BINARY, '')));
    else if (IGNORE_FILE.test(rest)) this.#ignored++;
    else {
      const glob = EXCLUDED_BY_GLOB.exec(rest)?.[1];
      if (glob !== undefined && !this.#hiddenGlobs.has(glob)) this.#protectedFiles++;
    }
  }
}

function normalise(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}

/**
 * The skip-log budget across the ripgrep passes of one search: a pass whose log ran past `skipLogBytes` is made again
 * without the log, and so is every later pass; what the cut-short log had reported stays as a lower bound.
 */
export class SkipLogBudget {
  #cutShort: RgSkipCounts | undefined;

  /**
   * Runs one pass (`debug`: whether it may keep ripgrep's log) and, if its log overflowed, runs it again without;
   * `discard` releases what the overflowed pass held.
   */
  async pass<P extends { readonly run: RgRun; readonly skips: RgSkipTally }>(
    run: (debug: boolean) => Promise<P>,
    discard?: (overflowed: P) => void,
  ): Promise<P> {
    const done = await run(this.#cutShort === undefined);
    if (!done.run.logOverflow) return done;
    discard?.(done);
    this.#cutShort = done.skips.counts();
    return run(false);
  }

  /** True once a log was cut short: the skip counts are lower bounds. */
  get lowerBound(): boolean {
    return this.#cutShort !== undefined;
  }

  /** The last pass's counts, each raised to what a cut-short log had already reported (both are lower bounds). */
  counts(last: RgSkipTally): RgSkipCounts {
    const now = last.counts();
    const before = this.#cutShort;
    if (before === undefined) return now;
    return {
      ignored: Math.max(before.ignored, now.ignored),
      tooLarge: Math.max(before.tooLarge, now.tooLarge),
      binary: Math.max(before.binary, now.binary),
      protectedFiles: Math.max(before.protectedFiles, now.protectedFiles),
    };
  }
}
