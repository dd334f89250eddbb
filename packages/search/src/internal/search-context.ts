import type { ProtectedNamePolicy, Workspace } from '@bough/workspace';
import type { SearchLimits } from '../limits.js';
import type { SearchRequest, SearchResult } from '../schema.js';
import type { RgSkipCounts } from './rg-skips.js';

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
  /** Paths a permission policy withholds (see `SearchOptions.hidden`). */
  readonly hidden?: (relative: string) => boolean;
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
    /** What ripgrep left out by reason (from its debug log); zero counts when unknown. */
    skips?: RgSkipCounts;
    /** The skip counts are lower bounds (the log was cut short, see `skipLogBytes`). */
    skipsLowerBound?: boolean;
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
  const skips = totals.skips ?? NO_SKIPS;
  if (totals.count > lines.length) {
    const total = `${totals.count}${totals.lowerBound ? '+' : ''}`;
    notes.push(
      `Showing ${lines.length} of ${total} ${what}. Narrow the search with path or include, ` +
        `or raise max_results (up to ${ctx.limits.maxResults}).`,
    );
  } else if (totals.count === 0) {
    notes.push(`No ${what} found.`);
  }
  const left = leftOut(skips, ctx.limits.maxFileBytes, totals.skipsLowerBound === true);
  if (left !== '') notes.push(left);
  if (totals.count === 0 && ignored === 'excluded') {
    notes.push(
      skips.ignored > 0
        ? 'include_ignored: true also searches what .gitignore/.ignore hides.'
        : 'Files ignored by .gitignore were not searched; include_ignored: true searches them.',
    );
  }
  if (totals.protected > 0) {
    notes.push(
      `${totals.protected} result(s) in protected files (credentials, keys) or paths the permission policy denies were withheld.`,
    );
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
    skipped: {
      protected: totals.protected,
      long_lines: totals.longLines,
      ignored_files: ignored,
      ignored: skips.ignored,
      binary: skips.binary,
      too_large: skips.tooLarge,
      protected_files: skips.protectedFiles,
      lower_bound: totals.skipsLowerBound === true,
    },
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
}

const NO_SKIPS: RgSkipCounts = Object.freeze({ ignored: 0, tooLarge: 0, binary: 0, protectedFiles: 0 });

/** One sentence listing what was not searched and why, or '' when nothing was left out. */
function leftOut(skips: RgSkipCounts, maxFileBytes: number, lowerBound: boolean): string {
  const parts: string[] = [];
  const atLeast = lowerBound ? 'at least ' : '';
  if (skips.ignored > 0)
    parts.push(`${atLeast}${skips.ignored} path(s) hidden by .gitignore/.ignore (a directory counts once)`);
  if (skips.binary > 0) parts.push(`${atLeast}${skips.binary} binary file(s) whose lines are not shown`);
  if (skips.tooLarge > 0) parts.push(`${atLeast}${skips.tooLarge} file(s) over ${maxFileBytes} bytes`);
  if (skips.protectedFiles > 0) parts.push(`${skips.protectedFiles} protected file(s) (credentials, keys)`);
  return parts.length === 0 ? '' : `Not searched or not shown: ${parts.join('; ')}.`;
}
