import { failure } from './errors.js';
import { BoundedBest, comparePaths } from './internal/bounded-best.js';
import { baseRgArgs, displayPath, isProtectedPath, toWorkspacePath } from './internal/rg-common.js';
import { binaryNoticePath, RgLineParser } from './internal/rg-lines.js';
import { RgSkipTally } from './internal/rg-skips.js';
import { type RgRun, rgFailure, runRg } from './internal/run-rg.js';
import { type SearchContext, searchResult } from './internal/search-context.js';
import { confirmDeadline, confirmMatches, type PendingMatch, RG_CUT_MARKER } from './internal/verify-results.js';
import { protectedGlobArgs } from './protected-globs.js';
import type { SearchResponse } from './schema.js';

/** Cuts a line at `max` characters without splitting a surrogate pair; reports whether anything was cut. */
export function cutLine(text: string, max: number): { text: string; cut: boolean } {
  let cut = false;
  let body = text;
  if (RG_CUT_MARKER.test(body)) {
    body = body.replace(RG_CUT_MARKER, '').replace(/\uFFFD+$/, '');
    cut = true;
  }
  if (body.length > max) {
    body = body.slice(0, /[\uD800-\uDBFF]/.test(body[max - 1] ?? '') ? max - 1 : max);
    cut = true;
  }
  return { text: cut ? `${body} … [line cut at ${max} chars]` : body, cut };
}

function grepArgs(ctx: SearchContext, sorted: boolean, debug: boolean): string[] {
  const { request, limits } = ctx;
  return [
    ...baseRgArgs(request.include_ignored === true, debug),
    '--no-heading',
    '--with-filename',
    '--line-number',
    // Where each line starts, so a match in a large file is confirmed by reading just that line (verify-results.ts).
    '--byte-offset',
    '--null',
    // Only the fallback walk is sorted (it costs ripgrep its parallel walk); see grep() below.
    ...(sorted ? ['--sort=path'] : []),
    `--max-columns=${limits.maxLineChars * 4}`,
    '--max-columns-preview',
    `--max-filesize=${limits.maxFileBytes}`,
    request.case_insensitive ? '--ignore-case' : '--case-sensitive',
    ...(request.fixed_strings ? ['--fixed-strings'] : []),
    ...(request.include ? [`--glob=${request.include}`] : []),
    // Protected exclusions come last so they win over any include glob.
    ...protectedGlobArgs(ctx.policy),
    // Attached with '=' so a pattern such as "--pre=sh" can only ever be a pattern.
    `--regexp=${request.pattern}`,
    '--',
    ctx.target,
  ];
}

const byPathThenLine = (a: PendingMatch, b: PendingMatch) => comparePaths(a.path, b.path) || a.line - b.line;

/** What one ripgrep run found: counts, the first `maxResults` matches in path/line order, and the skip tally. */
interface GrepPass {
  readonly run: RgRun;
  readonly count: number;
  readonly withheld: number;
  readonly best: BoundedBest<PendingMatch>;
  readonly skips: RgSkipTally;
}

/** One ripgrep run; `debug` keeps ripgrep's whole log of skipped files (for exact skip counts). */
async function grepPass(ctx: SearchContext, sorted: boolean, timeoutMs: number, debug: boolean): Promise<GrepPass> {
  const best = new BoundedBest<PendingMatch>(ctx.maxResults, byPathThenLine);
  // Once the kept matches are full and a file sorts after all of them, none of its lines can be kept (the bar only
  // rises), so its records are counted without decoding their text.
  let askedRaw: string | undefined;
  let asked: PendingMatch = { path: '', line: 0, text: '' };
  const parser = new RgLineParser({
    byteOffset: true,
    textWanted: (raw) => {
      if (raw !== askedRaw) {
        askedRaw = raw;
        asked = { path: toWorkspacePath(ctx.prefix, raw), line: 0, text: '' };
      }
      return best.wouldKeep(asked);
    },
  });
  const stopAt = Math.max(ctx.limits.countLimit, ctx.maxResults);
  let count = 0;
  let withheld = 0;
  const skips = new RgSkipTally();
  // A file's matches arrive together: its workspace path and protected check are worked out once per file.
  let lastRaw: string | undefined;
  let lastPath = '';
  let lastProtected = false;
  const run = await runRg({
    rgPath: ctx.rgPath,
    args: grepArgs(ctx, sorted, debug),
    cwd: ctx.cwd,
    workspaceRoot: ctx.workspaceRoot,
    timeoutMs,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onStdout: (chunk, stop) => {
      for (const line of parser.push(chunk)) {
        if (count >= stopAt) break;
        if (line.kind === 'notice') {
          const binary = binaryNoticePath(line.text);
          if (binary !== undefined) skips.noteBinary(binary);
          continue;
        }
        const raw = line.kind === 'counted' ? line.path : line.match.path;
        if (raw !== lastRaw) {
          lastRaw = raw;
          lastPath = toWorkspacePath(ctx.prefix, lastRaw);
          lastProtected = isProtectedPath(lastPath, ctx.policy) || ctx.hidden?.(lastPath) === true;
        }
        const path = lastPath;
        if (lastProtected) {
          withheld++;
          continue;
        }
        count++;
        if (line.kind === 'counted') continue;
        const { line: lineNo, offset, text } = line.match;
        best.add(offset === undefined ? { path, line: lineNo, text } : { path, line: lineNo, offset, text });
      }
      if (count >= stopAt) stop();
    },
    onStderr: (chunk) => skips.push(chunk),
  });
  return { run, count, withheld, best, skips };
}

/**
 * Searches file contents with ripgrep, streaming its output. ripgrep walks in parallel and the first `max_results`
 * matches in path/line order are kept as they stream in, so a search that runs to the end gives the same answer as a
 * sorted walk. A search that reaches the count limit is stopped early, and which matches a parallel walk had seen by
 * then depends on thread timing; that case is answered by a second, sorted walk, which always stops at the same place.
 *
 * Skip counts: by default ripgrep runs without `--debug` (its log names every binary file it stops reading, which on
 * a tree full of `.pyc` or `.node` files costs ripgrep up to half as much again), so the counts hold only what stdout
 * reveals and are flagged as lower bounds. `exact_skips` keeps the whole log, however long, and counts exactly.
 */
export async function grep(ctx: SearchContext): Promise<SearchResponse> {
  const started = Date.now();
  const left = () => Math.max(1, ctx.limits.timeoutMs - (Date.now() - started));
  const exact = ctx.request.exact_skips === true;
  const runPass = (sorted: boolean) => grepPass(ctx, sorted, left(), exact);
  let pass = await runPass(false);
  if (pass.run.outcome.success && pass.run.stoppedEarly) pass = await runPass(true);
  const { run, count, withheld, skips } = pass;
  const { outcome } = run;
  if (!outcome.success) return rgFailure(outcome);
  const skipped = skips.counts();
  // The debug log is for counting; only ripgrep's own messages are classified or shown.
  const stderr = skips.messages().trim();
  if (outcome.return_code === 2 && count === 0 && !outcome.timed_out && !run.stoppedEarly) {
    const detail = stderr.replace(/^rg: /gm, '').slice(0, 600);
    if (/regex|literal/i.test(stderr)) {
      return failure(
        'invalid_pattern',
        `The pattern is not a valid regular expression: ${detail}. ` +
          'Fix the syntax, escape special characters with a backslash, or set fixed_strings: true to search literal text.',
      );
    }
    if (/glob/i.test(stderr)) return failure('invalid_glob', `The include glob was rejected: ${detail}`);
    return failure('search_failed', `ripgrep could not complete the search: ${detail || 'no error text'}`);
  }
  // ripgrep opened files by path while walking; show only text the workspace gate confirms is really there now.
  const confirmed = await confirmMatches(ctx.workspace, pass.best.sorted(), ctx.limits.maxFileBytes, {
    deadline: confirmDeadline(started, ctx.limits),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  let longLines = 0;
  const lines = confirmed.kept.map((match) => {
    const shown = cutLine(match.text, ctx.limits.maxLineChars);
    if (shown.cut) longLines++;
    return `${displayPath(match.path)}:${match.line}:${shown.text}`;
  });
  const extra: string[] = [];
  if (confirmed.unchecked > 0) {
    extra.push(
      `${confirmed.unchecked} match(es) were not shown because the time budget ran out while they were being checked.`,
    );
  }
  if (outcome.return_code === 2 && stderr !== '') {
    extra.push(`Some files could not be searched: ${stderr.split('\n')[0]?.replace(/^rg: /, '').slice(0, 200)}`);
  }
  return searchResult(
    ctx,
    lines,
    {
      count: count - confirmed.dropped,
      lowerBound: run.stoppedEarly || outcome.timed_out || outcome.aborted,
      timedOut: outcome.timed_out || confirmed.unchecked > 0,
      protected: withheld,
      longLines,
      changed: confirmed.dropped,
      skips: skipped,
      skipsLowerBound: !exact,
    },
    extra,
  );
}
