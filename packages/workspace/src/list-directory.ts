import { closeSync } from 'node:fs';
import type { WorkspaceFailure } from './errors.js';
import { applyIntent } from './internal/intent.js';
import { childPath } from './internal/paths.js';
import { quietly } from './internal/quietly.js';
import { provenPlainDir, type ResolverContext, resolveDetail } from './internal/resolver.js';
import {
  ancestorLevels,
  emptySummary,
  join2,
  readDirectory,
  verdictOf,
  type WalkEntry,
  type WalkOptions,
  type WalkSummary,
} from './walk.js';

/** Options of {@link listDirectoryIn}: those of a walk that stays in one directory and reports names only. */
export type ListDirectoryOptions = Omit<WalkOptions, 'recursive' | 'details'>;

/** One directory's entries (name order), the checked directory itself, and what was left out. */
export interface DirectoryListing {
  readonly success: true;
  /** The real path of the listed directory. */
  readonly path: string;
  /** Its path relative to the root ('.' for the root). */
  readonly relative: string;
  readonly entries: WalkEntry[];
  readonly summary: WalkSummary;
}

/**
 * A non-recursive walk with `details: false`, answered in one piece: the same gate, rules, order, counters and entries
 * as `walkIn`, without an async generator step per entry. A refused directory comes back as the failure value.
 */
export async function listDirectoryIn(
  ctx: ResolverContext,
  dir: string,
  options: ListDirectoryOptions = {},
): Promise<DirectoryListing | WorkspaceFailure> {
  // A plain path proven by its descriptor needs no component walk, and is listed through the descriptor it was
  // proven with; anything else takes the walk, which also says why a path is refused.
  const proven = provenPlainDir(ctx, dir);
  let detail: { readonly path: string; readonly relative: string };
  if (proven) {
    detail = proven;
  } else {
    const resolved = await resolveDetail(ctx, dir, 'list');
    const checked = resolved.success ? applyIntent(resolved, dir, 'list') : resolved;
    if (!checked.success) return checked;
    detail = checked;
  }
  const summary = emptySummary();
  const entries: WalkEntry[] = [];
  const listing: DirectoryListing = { success: true, path: detail.path, relative: detail.relative, entries, summary };
  const cap = Math.min(options.maxEntries ?? ctx.limits.maxWalkEntries, ctx.limits.maxWalkEntries);
  const rules = { ctx, options, summary };
  let ancestors: Awaited<ReturnType<typeof ancestorLevels>> = [];
  try {
    if (options.gitignore !== false) ancestors = await ancestorLevels(ctx, detail.relative);
  } catch (error) {
    if (proven) quietly(() => closeSync(proven.held.fd));
    throw error;
  }
  // From here readDirectory owns the held descriptor and closes it whatever happens to the listing.
  const read = await readDirectory(rules, detail.path, detail.relative, ancestors, true, proven?.held);
  if (!read) return listing;
  const { entries: listed, levels } = read;
  for (let i = 0; i < listed.length; i++) {
    const entry = listed[i]!;
    if (options.signal?.aborted) {
      summary.aborted = true;
      summary.truncated = true;
      break;
    }
    const verdict = verdictOf(rules, levels, detail.relative, entry);
    if (verdict !== 'take') {
      summary.skipped[verdict]++;
      continue;
    }
    if (summary.entries >= cap) {
      summary.truncated = true;
      summary.skipped.capped += listed.length - i;
      break;
    }
    const isDir = entry.isDirectory();
    if (isDir && options.filesOnly) continue;
    summary.entries++;
    entries.push({
      // A listed name holds no slash and is never '.' or '..'.
      path: childPath(detail.path, entry.name),
      relative: join2(detail.relative, entry.name),
      kind: isDir ? 'directory' : 'file',
    });
  }
  return listing;
}
