import { lstatSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { failure } from './errors.js';
import { confirmPaths } from './internal/confirm-paths.js';
import {
  IGNORE_FILE_NAMES,
  inGitDir,
  isIgnoreSource,
  nameFilterFor,
  outsideIgnoreRulesMayApply,
} from './internal/ignore-sources.js';
import { baseRgArgs, displayPath, ProtectedPathCheck, toWorkspacePath } from './internal/rg-common.js';
import { RgSkipTally, SkipLogBudget } from './internal/rg-skips.js';
import { type RgRun, rgFailure, runRg } from './internal/run-rg.js';
import { type SearchContext, searchResult } from './internal/search-context.js';
import { confirmDeadline } from './internal/verify-results.js';
import type { SearchResponse } from './schema.js';

/** A glob without '/' matches file names at any depth, the way `*.ts` is usually meant. */
export function anchorGlob(glob: string): string {
  const clean = glob.startsWith('./') ? glob.slice(2) : glob;
  return clean.includes('/') ? clean : `**/${clean}`;
}

// Paths stamped per turn of the event loop: a synchronous lstat of a cached inode takes microseconds, several times
// less than a round trip through the thread pool, and a batch this size blocks the loop for about a millisecond.
const STAT_BATCH = 256;

function mtimeOf(path: string): number {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  } catch {
    return 0; // unreadable: keep it, last
  }
}

interface Stamped {
  readonly path: string;
  readonly mtime: number;
}

/**
 * Stamps listed paths with their modification time while ripgrep is still listing: paths are queued as they stream
 * in and stamped `STAT_BATCH` per turn of the event loop, so the stat calls overlap ripgrep's walk instead of following
 * it, and the loop is never blocked for long. `finish()` stamps what is left and returns every path newest first
 * (ties by path); a path removed meanwhile gets mtime 0 and goes last.
 */
class MtimeStamps {
  readonly #root: string;
  readonly #queue: string[] = [];
  readonly #stamped: Stamped[] = [];
  #next = 0;
  #scheduled = false;

  constructor(root: string) {
    this.#root = root;
  }

  add(path: string): void {
    this.#queue.push(path);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#batch());
    }
  }

  #batch(): void {
    this.#scheduled = false;
    this.#stampUpTo(this.#next + STAT_BATCH);
    if (this.#next < this.#queue.length) {
      this.#scheduled = true;
      setImmediate(() => this.#batch());
    }
  }

  #stampUpTo(end: number): void {
    const stop = Math.min(end, this.#queue.length);
    for (; this.#next < stop; this.#next++) {
      const path = this.#queue[this.#next] as string;
      this.#stamped.push({ path, mtime: mtimeOf(join(this.#root, path)) });
    }
  }

  /** Stops stamping: this listing's answer is not used. */
  discard(): void {
    this.#queue.length = this.#next;
  }

  async finish(): Promise<string[]> {
    while (this.#next < this.#queue.length) {
      if (this.#next > 0) await new Promise((resolve) => setImmediate(resolve));
      this.#stampUpTo(this.#next + STAT_BATCH);
    }
    const stamped = this.#stamped;
    stamped.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return stamped.map((entry) => entry.path);
  }
}

/** What one `rg --files` run listed. */
interface Listing {
  readonly run: RgRun;
  /** Matching, non-protected paths (workspace-relative), at most the count limit. */
  readonly found: string[];
  /** The same paths, stamped with their modification time as they were listed. */
  readonly stamps: MtimeStamps;
  readonly withheld: number;
  readonly skips: RgSkipTally;
  /** The count limit was reached and ripgrep stopped (which paths were seen by then depends on thread timing). */
  readonly full: boolean;
  /** A narrowed listing met an ignore file, so its answer is not used. */
  readonly rulesSeen: boolean;
}

/**
 * How to list: `sorted` walks in path order (single-threaded, deterministic early stop); `nameFilter` lets ripgrep
 * list only names matching that glob, without --debug (only valid while no ignore rule applies).
 */
interface ListingMode {
  readonly sorted: boolean;
  readonly nameFilter?: string;
  /** A full listing without ripgrep's skip log (after a listing whose log passed skipLogBytes). */
  readonly quiet?: boolean;
}

/**
 * Flags every listing adds for speed. `--threads`: ripgrep walks with one thread fewer than the cores (at least one),
 * leaving a core to this process, which parses the listing and stats every match while ripgrep walks; on two cores a
 * single walker thread lists the Python standard library in about 0.7x the time two threads take (15 vs 21 ms, and
 * 158 vs 179 ms for 30k files of node_modules), since the second thread and this process fight over the other core.
 * `--line-buffered`: ripgrep writes a piped listing in 8 KiB blocks, so most names used to arrive when it exited;
 * with line buffering (a 1 KiB buffer, since names end in NUL) they arrive as the walk goes and the stat calls
 * overlap it.
 */
function speedArgs(): string[] {
  return [`--threads=${Math.max(1, availableParallelism() - 1)}`, '--line-buffered'];
}

function listingArgs(ctx: SearchContext, mode: ListingMode): string[] {
  const includeIgnored = ctx.request.include_ignored === true;
  if (mode.nameFilter === undefined) {
    // --null: names may hold newlines.
    return [
      ...baseRgArgs(includeIgnored, mode.quiet !== true),
      ...speedArgs(),
      '--files',
      '--null',
      ...(mode.sorted ? ['--sort=path'] : []),
      '--',
      ctx.target,
    ];
  }
  const flag = ctx.request.case_insensitive ? '--iglob' : '--glob';
  const args = [
    '--no-config',
    '--hidden',
    '--no-require-git',
    '--color=never',
    ...speedArgs(),
    `${flag}=${mode.nameFilter}`,
  ];
  if (includeIgnored) {
    // No ignore file is read at all, so a whitelist glob changes nothing but the amount of output.
    args.push('--no-ignore', '--iglob=!.git');
  } else {
    // Also list every ignore file and nested git excludes file (a whitelist glob wins over ignore rules, so one that
    // ignores itself is listed too); any of them means this listing is not used. Inside .git nothing else is walked.
    for (const name of IGNORE_FILE_NAMES) args.push(`--iglob=${name}`);
    args.push('--iglob=!**/.git/**', '--iglob=**/.git/info', '--iglob=**/.git/info/exclude');
  }
  return [...args, '--files', '--null', ...(mode.sorted ? ['--sort=path'] : []), '--', ctx.target];
}

async function listFiles(ctx: SearchContext, mode: ListingMode, timeoutMs: number): Promise<Listing> {
  const { request } = ctx;
  const options = { dot: true, nocase: request.case_insensitive === true };
  const matches = picomatch(anchorGlob(request.pattern), options);
  const included = request.include ? picomatch(anchorGlob(request.include), options) : () => true;
  const stopAt = Math.max(ctx.limits.countLimit, ctx.maxResults);
  const narrowed = mode.nameFilter !== undefined;
  const watchRules = narrowed && request.include_ignored !== true;
  const found: string[] = [];
  const stamps = new MtimeStamps(ctx.workspaceRoot);
  let withheld = 0;
  let pending = '';
  let rulesSeen = false;
  const skips = new RgSkipTally();
  const protectedPath = new ProtectedPathCheck(ctx.policy);
  const run = await runRg({
    rgPath: ctx.rgPath,
    args: listingArgs(ctx, mode),
    cwd: ctx.cwd,
    workspaceRoot: ctx.workspaceRoot,
    timeoutMs,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onStdout: (chunk, stop) => {
      const parts = (pending + chunk.toString('utf8')).split('\0');
      pending = parts.pop() ?? '';
      for (const raw of parts) {
        if (found.length >= stopAt || rulesSeen) break;
        const local = raw.startsWith('./') ? raw.slice(2) : raw;
        if (watchRules && isIgnoreSource(local)) {
          rulesSeen = true;
          break;
        }
        if (narrowed && inGitDir(local)) continue;
        if (!matches(local) || !included(local)) continue;
        const path = toWorkspacePath(ctx.prefix, raw);
        if (protectedPath.test(path) || ctx.hidden?.(path) === true) withheld++;
        else {
          found.push(path);
          stamps.add(path);
        }
      }
      if (found.length >= stopAt || rulesSeen) stop();
    },
    ...(narrowed ? {} : { onStderr: (chunk: Buffer) => skips.push(chunk) }),
    ...(narrowed || mode.quiet ? {} : { logBudgetBytes: ctx.limits.skipLogBytes }),
  });
  return { run, found, stamps, withheld, skips, full: found.length >= stopAt && run.stoppedEarly, rulesSeen };
}

/**
 * Lists files whose path matches a glob (ripgrep's walker, so .gitignore is honoured), newest first. ripgrep walks in
 * parallel; when no ignore rule can apply it also filters names itself (see ignore-sources.ts). Every path is still
 * matched with picomatch here. A listing that reaches the count limit is answered by a sorted walk instead, which
 * stops at the same place every time.
 */
export async function find(ctx: SearchContext): Promise<SearchResponse> {
  const started = Date.now();
  const left = () => Math.max(1, ctx.limits.timeoutMs - (Date.now() - started));
  const nameFilter = ctx.target === '.' ? nameFilterFor(anchorGlob(ctx.request.pattern)) : undefined;
  let listing: Listing | undefined;
  const budget = new SkipLogBudget();
  const fullListing = (sorted: boolean): Promise<Listing> =>
    budget.pass(
      (debug) => listFiles(ctx, { sorted, quiet: !debug }, left()),
      (overflowed) => overflowed.stamps.discard(),
    );
  if (
    nameFilter !== undefined &&
    (ctx.request.include_ignored === true || !(await outsideIgnoreRulesMayApply(ctx.cwd)))
  ) {
    listing = await listFiles(ctx, { sorted: false, nameFilter }, left());
    if (listing.full && listing.run.outcome.success) {
      listing.stamps.discard();
      listing = await fullListing(true);
    } else if (listing.rulesSeen && listing.run.outcome.success) {
      listing.stamps.discard();
      listing = undefined;
    }
  }
  if (listing === undefined) {
    listing = await fullListing(false);
    if (listing.full && listing.run.outcome.success) {
      listing.stamps.discard();
      listing = await fullListing(true);
    }
  }
  const { run, found, withheld, skips } = listing;
  const { outcome } = run;
  if (!outcome.success) return rgFailure(outcome);
  if (outcome.return_code === 2 && found.length === 0 && !outcome.timed_out && !run.stoppedEarly) {
    const detail = skips.messages().trim().replace(/^rg: /gm, '').slice(0, 600);
    return failure('search_failed', `Listing files failed: ${detail || 'no error text'}`);
  }
  const ordered = await listing.stamps.finish();
  // A directory swapped for a link during ripgrep's walk could have listed names from outside; confirm what is shown.
  const confirmed = await confirmPaths(ctx.workspace, ordered.slice(0, ctx.maxResults), {
    deadline: confirmDeadline(started, ctx.limits),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  const lines = confirmed.kept.map(displayPath);
  return searchResult(
    ctx,
    lines,
    {
      count: found.length - confirmed.dropped,
      changed: confirmed.dropped,
      lowerBound: listing.full || outcome.timed_out || outcome.aborted,
      timedOut: outcome.timed_out || confirmed.unchecked > 0,
      protected: withheld,
      longLines: 0,
      skips: budget.counts(skips),
      skipsLowerBound: budget.lowerBound,
    },
    confirmed.unchecked > 0
      ? [`${confirmed.unchecked} path(s) were not shown because the time budget ran out while they were being checked.`]
      : [],
  );
}
