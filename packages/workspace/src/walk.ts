import type { Dirent, Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { BoughError } from '@bough/core';
import type { WorkspaceFailure } from './errors.js';
import { type IgnoreLevel, isIgnored, loadIgnoreLevel } from './internal/ignore-rules.js';
import { applyIntent } from './internal/intent.js';
import { childPath, components } from './internal/paths.js';
import { type ProvenDir, readDirPinned, readHeldDir } from './internal/pinned-dir.js';
import { type ResolverContext, resolveDetail } from './internal/resolver.js';
import { isGitDirName, isProtectedName } from './protected-names.js';

/** How a walk should traverse; the defaults suit a code listing (recursive, gitignore honoured, dotfiles shown). */
export interface WalkOptions {
  recursive?: boolean;
  gitignore?: boolean;
  includeHidden?: boolean;
  maxEntries?: number;
  signal?: AbortSignal;
  filesOnly?: boolean;
  /**
   * Default true: every entry is lstat-ed for its `size` and `mtimeMs` (and its type checked again). False: the types
   * the directory listing gave are trusted (links and special files are still never yielded) and entries carry no
   * size or mtime — one system call per directory instead of one per entry, for a plain listing of names.
   */
  details?: boolean;
}

/** One file or directory met by a walk (links and special files are never yielded). */
export interface WalkEntry {
  path: string;
  relative: string;
  kind: 'file' | 'directory';
  size?: number;
  mtimeMs?: number;
}

/** What a walk left out and why, so a tool can tell the model its listing is partial. */
export interface WalkSummary {
  entries: number;
  skipped: {
    protected: number;
    ignored: number;
    hidden: number;
    links: number;
    special: number;
    unreadable: number;
    capped: number;
  };
  truncated: boolean;
  aborted: boolean;
}

/** Thrown by a walk whose starting directory is refused, carrying the same failure value `resolve` would return. */
export class WorkspaceError extends BoughError {
  readonly failure: WorkspaceFailure;
  constructor(failure: WorkspaceFailure) {
    super(failure.error, { code: failure.error_code });
    this.failure = failure;
  }
}

interface WalkState {
  readonly ctx: ResolverContext;
  readonly options: WalkOptions;
  readonly cap: number;
  readonly summary: WalkSummary;
}

/** Directory entries in code-unit order of their names. */
const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
/** `rel/name`, or `name` at the root ('.'). */
export const join2 = (rel: string, name: string) => (rel === '.' ? name : `${rel}/${name}`);

/**
 * One directory's entries in name order, with the ignore rules that hold inside it (its own .gitignore added to
 * `levels`); undefined, counted as unreadable, when it cannot be listed. `sync` lists a small directory synchronously.
 * `held`: `dir` already opened and proven (it is listed through it and closed); otherwise `dir` is opened here.
 */
export async function readDirectory(
  state: Pick<WalkState, 'options' | 'ctx' | 'summary'>,
  dir: string,
  rel: string,
  levels: readonly IgnoreLevel[],
  sync: boolean,
  held?: ProvenDir,
): Promise<{ entries: Dirent[]; levels: readonly IgnoreLevel[] } | undefined> {
  const listed = held ? await readHeldDir(held, dir, sync) : await readDirPinned(dir, sync);
  if (!Array.isArray(listed)) {
    state.summary.skipped.unreadable++;
    return undefined;
  }
  const entries = listed.sort(byName);
  if (state.options.gitignore !== false && entries.some((e) => e.name === '.gitignore' && e.isFile())) {
    const level = await loadIgnoreLevel(dir, rel === '.' ? '' : rel, state.ctx.limits.maxIgnoreFileBytes);
    if (level) return { entries, levels: [...levels, level] };
  }
  return { entries, levels };
}

async function* walkDir(
  state: WalkState,
  dir: string,
  rel: string,
  depth: number,
  levels: readonly IgnoreLevel[],
): AsyncGenerator<WalkEntry, void> {
  const { options, summary, ctx } = state;
  // The directory the walk was asked for may be listed synchronously when small; the ones under it stay
  // asynchronous, so a deep walk still lets the event loop (and its abort signal) run between directories.
  const read = await readDirectory(state, dir, rel, levels, depth === 0);
  if (!read) return;
  const { entries, levels: here } = read;
  // Decide every entry from its name and dirent type first (no I/O), so the lstat calls for the entries that will
  // be yielded can run a window at a time instead of one after another.
  const verdicts = entries.map((entry) => verdictOf(state, here, rel, entry));
  const stats: (Promise<Stats | undefined> | undefined)[] = new Array(entries.length);
  let prefetched = 0;
  let inFlight = 0;
  const statAt = (i: number): Promise<Stats | undefined> => {
    for (; prefetched < entries.length && (prefetched <= i || inFlight < LSTAT_WINDOW); prefetched++) {
      if (verdicts[prefetched] !== 'take') continue;
      stats[prefetched] = lstat(join(dir, entries[prefetched]!.name)).catch(() => undefined);
      inFlight++;
    }
    const pending = stats[i] as Promise<Stats | undefined>;
    stats[i] = undefined;
    inFlight--;
    return pending;
  };
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (options.signal?.aborted) {
      summary.aborted = true;
      summary.truncated = true;
      return;
    }
    const verdict = verdicts[i]!;
    if (verdict !== 'take') {
      summary.skipped[verdict]++;
      continue;
    }
    if (summary.entries >= state.cap) {
      summary.truncated = true;
      summary.skipped.capped += entries.length - i;
      return;
    }
    const childRel = join2(rel, entry.name);
    const childPath = join(dir, entry.name);
    const isDir = entry.isDirectory();
    let detail: { size?: number; mtimeMs: number } | undefined;
    if (options.details !== false) {
      const st = await statAt(i);
      if (!st || st.isSymbolicLink() || (isDir ? !st.isDirectory() : !st.isFile())) continue;
      detail = isDir ? { mtimeMs: st.mtimeMs } : { size: st.size, mtimeMs: st.mtimeMs };
    }
    if (!isDir || !options.filesOnly) {
      summary.entries++;
      yield { path: childPath, relative: childRel, kind: isDir ? 'directory' : 'file', ...detail };
    }
    if (isDir && options.recursive !== false) {
      if (depth + 1 > ctx.limits.maxWalkDepth) {
        summary.truncated = true;
        summary.skipped.capped++;
        continue;
      }
      yield* walkDir(state, childPath, childRel, depth + 1, here);
      if (summary.truncated) return;
    }
  }
}

/** How many lstat calls of one directory's entries may be in flight ahead of the entry being yielded. */
const LSTAT_WINDOW = 32;

/** What the walk's rules make of one entry: take it, or the skip counter it goes to. */
export type Verdict = 'take' | 'ignored' | 'protected' | 'links' | 'special' | 'hidden';

/** The walk's name- and type-based rules for one directory entry, in the order they are counted. */
export function verdictOf(
  state: Pick<WalkState, 'options' | 'ctx'>,
  levels: readonly IgnoreLevel[],
  rel: string,
  entry: Dirent,
): Verdict {
  const { options, ctx } = state;
  const isDir = entry.isDirectory();
  if (options.gitignore !== false && isGitDirName(entry.name)) return 'ignored';
  if (isProtectedName(entry.name, ctx.policy)) return 'protected';
  if (entry.isSymbolicLink()) return 'links';
  if (!isDir && !entry.isFile()) return 'special';
  if (options.includeHidden === false && entry.name.startsWith('.')) return 'hidden';
  // Without a .gitignore on the way there is nothing to match (and no path to build for it).
  if (options.gitignore !== false && levels.length > 0 && isIgnored(levels, join2(rel, entry.name), isDir)) {
    return 'ignored';
  }
  return 'take';
}

/** The ignore rules a walk of `rel` starts with: each ancestor's .gitignore, root first. */
export async function ancestorLevels(ctx: ResolverContext, rel: string): Promise<IgnoreLevel[]> {
  const parts = components(rel === '.' ? '' : rel);
  const levels: IgnoreLevel[] = [];
  let dir = ctx.root;
  let base = '';
  for (let i = 0; i < parts.length; i++) {
    const level = await loadIgnoreLevel(dir, base, ctx.limits.maxIgnoreFileBytes);
    if (level) levels.push(level);
    dir = childPath(dir, parts[i]!);
    base = base === '' ? parts[i]! : `${base}/${parts[i]!}`;
  }
  // A directory the caller names explicitly is listed even when an ancestor rule ignores it.
  return rel !== '.' && isIgnored(levels, rel, true) ? [] : levels;
}

/** A summary with nothing counted yet. */
export function emptySummary(): WalkSummary {
  return {
    entries: 0,
    skipped: { protected: 0, ignored: 0, hidden: 0, links: 0, special: 0, unreadable: 0, capped: 0 },
    truncated: false,
    aborted: false,
  };
}

/** Lists a directory depth-first in name order without following links or yielding protected files. */
export async function* walkIn(
  ctx: ResolverContext,
  dir: string,
  options: WalkOptions = {},
): AsyncGenerator<WalkEntry, WalkSummary> {
  const resolved = await resolveDetail(ctx, dir, 'list');
  const detail = resolved.success ? applyIntent(resolved, dir, 'list') : resolved;
  if (!detail.success) throw new WorkspaceError(detail);
  const summary = emptySummary();
  const cap = Math.min(options.maxEntries ?? ctx.limits.maxWalkEntries, ctx.limits.maxWalkEntries);
  const levels = options.gitignore !== false ? await ancestorLevels(ctx, detail.relative) : [];
  yield* walkDir({ ctx, options, cap, summary }, detail.path, detail.relative, 0, levels);
  return summary;
}
