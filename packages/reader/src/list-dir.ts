import {
  type WalkEntry,
  type WalkSummary,
  type Workspace,
  WorkspaceError,
  type WorkspaceFailure,
} from '@bough/workspace';
import { extensionOf } from '@bough/workspace/internal';
import { failure } from './errors.js';
import type { ReaderLimits } from './limits.js';
import type { ReaderResponse } from './schema.js';

/** Options of one listing, after validation. */
export interface ListOptions {
  recursive: boolean;
  fileTypes: readonly string[] | undefined;
  signal?: AbortSignal;
  /** Paths a permission policy withholds: left out, counted as protected. */
  hidden?: (relative: string) => boolean;
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type Walked =
  | { success: true; path: string; relative: string; entries: readonly WalkEntry[]; summary: WalkSummary }
  | WorkspaceFailure;

/** A recursive listing through the workspace walk, gathered into one answer like `Workspace.listDirectory`. */
async function walkAll(
  ws: Workspace,
  path: string,
  filesOnly: boolean,
  limits: ReaderLimits,
  signal: AbortSignal | undefined,
): Promise<Walked> {
  const start = await ws.resolve(path, 'list');
  if (!start.success) return start;
  const entries: WalkEntry[] = [];
  try {
    const walk = ws.walk(start.path, {
      recursive: true,
      maxEntries: limits.maxWalkEntries,
      filesOnly,
      // Names and kinds are all a listing shows: no lstat per entry.
      details: false,
      ...(signal ? { signal } : {}),
    });
    for (;;) {
      const step = await walk.next();
      if (step.done) return { success: true, path: start.path, relative: start.relative, entries, summary: step.value };
      entries.push(step.value);
    }
  } catch (error) {
    if (error instanceof WorkspaceError) return error.failure;
    return failure('io_error', `Could not list ${start.relative}: ${(error as Error).message}`);
  }
}

/** The `list_dir` action: a sorted, capped listing through the workspace walk, with counts of what was left out. */
export async function listDir(
  ws: Workspace,
  path: string,
  options: ListOptions,
  limits: ReaderLimits,
): Promise<ReaderResponse> {
  const wanted = options.fileTypes?.map((t) => t.replace(/^\.+/, '').toLowerCase()).filter(Boolean);
  const filter = wanted && wanted.length > 0 ? new Set(wanted) : undefined;
  const walked = options.recursive
    ? await walkAll(ws, path, filter !== undefined, limits, options.signal)
    : await ws.listDirectory(path, {
        maxEntries: limits.maxWalkEntries,
        filesOnly: filter !== undefined,
        ...(options.signal ? { signal: options.signal } : {}),
      });
  if (!walked.success) return walked;
  const start = walked;
  const summary = walked.summary;
  const found: string[] = [];
  let filtered = 0;
  let withheld = 0;
  for (const entry of walked.entries) {
    if (options.hidden?.(entry.relative)) {
      withheld++;
      continue;
    }
    if (filter && (entry.kind !== 'file' || !filter.has(extensionOf(entry.relative)))) {
      filtered++;
      continue;
    }
    found.push(entry.kind === 'directory' ? `${entry.relative}/` : entry.relative);
  }
  if (summary.aborted) return failure('aborted', 'The listing was cancelled.');
  found.sort(byCodeUnit);
  const overCap = Math.max(0, found.length - limits.maxListEntries);
  const entries = found.slice(0, limits.maxListEntries);
  const skipped: Record<string, number> = {
    protected: summary.skipped.protected + withheld,
    ignored: summary.skipped.ignored,
    hidden: summary.skipped.hidden,
    links: summary.skipped.links,
    special: summary.skipped.special,
    unreadable: summary.skipped.unreadable,
    capped: overCap + summary.skipped.capped,
    ...(filter ? { filtered } : {}),
  };
  const truncated = overCap > 0 || summary.truncated;
  // Every count but the filter's, in the order above; a plain loop, since this runs once per listing.
  let left = '';
  for (const key in skipped) {
    const n = skipped[key]!;
    if (n > 0 && key !== 'filtered') left += `${left === '' ? '' : ', '}${n} ${key}`;
  }
  let notice = `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} under ${start.relative}${options.recursive ? ' (recursive)' : ''}.`;
  if (truncated) {
    notice += ` The listing was cut at ${entries.length}; list a subdirectory or filter by file_types to see the rest.`;
  }
  if (left !== '') notice += ` Not shown: ${left}.`;
  return {
    success: true,
    type: 'directory',
    path: start.path,
    relative: start.relative,
    entries,
    content: entries.join('\n'),
    truncated,
    skipped,
    notice,
  };
}
