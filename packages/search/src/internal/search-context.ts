import type { ProtectedNamePolicy, Workspace } from '@branchkit/workspace';
import type { SearchLimits } from '../limits.js';
import type { SearchRequest, SearchResult } from '../schema.js';

/** Everything an action needs once the request is validated and its path checked. */
export interface SearchContext {
  readonly request: SearchRequest;
  readonly limits: SearchLimits;
  readonly maxResults: number;
  readonly rgPath: string;
  readonly workspaceRoot: string;
  /** The gate every shown result is confirmed through once ripgrep is done. */
  readonly workspace: Workspace;
  /** Absolute directory ripgrep runs in: the searched directory, or the parent of a searched file. */
  readonly cwd: string;
  /** The path argument given to ripgrep, relative to `cwd` ('.' or a file name). */
  readonly target: string;
  /** Workspace-relative path of `cwd` ('' for the root), prefixed to every result. */
  readonly prefix: string;
  readonly policy?: ProtectedNamePolicy;
  readonly signal?: AbortSignal;
}

/** Builds the shared success shape and the note that tells a model how to read or widen it. */
export function searchResult(
  ctx: SearchContext,
  lines: string[],
  totals: {
    count: number;
    lowerBound: boolean;
    timedOut: boolean;
    protected: number;
    longLines: number;
    changed?: number;
  },
  extraNotes: string[] = [],
): SearchResult {
  const ignored = ctx.request.include_ignored ? 'included' : 'excluded';
  const notes: string[] = [];
  const what = ctx.request.action === 'grep' ? 'matching lines' : 'files';
  if (totals.timedOut) {
    notes.push(
      `The search used its whole ${ctx.limits.timeoutMs} ms budget; these are the results found by then. ` +
        'Narrow it with path or include.',
    );
  }
  if (totals.count > lines.length) {
    const total = `${totals.count}${totals.lowerBound ? '+' : ''}`;
    notes.push(
      `Showing ${lines.length} of ${total} ${what}. Narrow the search with path or include, ` +
        `or raise max_results (up to ${ctx.limits.maxResults}).`,
    );
  } else if (totals.count === 0) {
    notes.push(
      `No ${what} found.` +
        (ignored === 'excluded'
          ? ' Files ignored by .gitignore were not searched; include_ignored: true searches them.'
          : ''),
    );
  }
  if (totals.protected > 0) {
    notes.push(`${totals.protected} result(s) in protected files (credentials, keys) were withheld.`);
  }
  if ((totals.changed ?? 0) > 0) {
    notes.push(
      `${totals.changed} result(s) were dropped because their file changed, became a link or left the workspace while the search ran; search again if that was unexpected.`,
    );
  }
  notes.push(...extraNotes);
  return {
    success: true,
    content: lines.join('\n'),
    count: totals.count,
    shown: lines.length,
    truncated: totals.count > lines.length,
    count_is_lower_bound: totals.lowerBound,
    timed_out: totals.timedOut,
    skipped: { protected: totals.protected, long_lines: totals.longLines, ignored_files: ignored },
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
}
