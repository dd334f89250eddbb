import { describeZodError, errorMessage, parseOnce, type ToolContext } from '@bough/core';
import { type AstGrepEngine, DYNAMIC_GRAMMARS, type DynamicGrammar, loadAstGrep } from '@bough/grammars';
import { type LinkRule, type ProtectedNamePolicy, Workspace } from '@bough/workspace';
import type { AstSearchErrorCode } from './errors.js';
import { compilePattern } from './internal/compile-pattern.js';
import { searchFiles } from './internal/search-files.js';
import { type CandidateFile, emptySkips, listCandidates } from './internal/source-files.js';
import { LANGUAGE_INFO } from './languages.js';
import { type AstSearchLimits, resolveAstSearchLimits } from './limits.js';
import { AstParseCache } from './parse-cache.js';
import { type AstSearchFailure, type AstSearchInput, AstSearchRequest, type AstSearchResponse } from './schema.js';

/** What the ast_search handler needs besides the request. */
export interface AstSearchOptions {
  /** Directory every path is confined to. */
  readonly workspaceRoot: string;
  /**
   * Names no file of a call may be opened under (default the workspace's `DEFAULT_PROTECTED`); files matching
   * them are skipped and counted like other skips. Pass the same policy every tool of a session uses.
   */
  readonly protectedNames?: ProtectedNamePolicy;
  /**
   * Where a symbolic link on a requested path may lead (the workspace's `linkRule`): a permission policy's path rules
   * applied to the real path the gate reached. The coding toolkit sets it from its policy.
   */
  readonly linkRule?: LinkRule;
  /**
   * Paths a permission policy withholds (given a workspace-relative path): results in them are never shown. The
   * coding toolkit sets it from its policy.
   */
  readonly hidden?: (relative: string) => boolean;
  /** Overrides for {@link DEFAULT_AST_SEARCH_LIMITS}. */
  readonly limits?: Partial<AstSearchLimits>;
  /** Cancels the search between files. */
  readonly signal?: AbortSignal;
  /**
   * Where parsed trees are kept between calls (default: one cache shared by the process, capped by the
   * `cacheMaxBytes` limit of the latest call).
   */
  readonly cache?: AstParseCache;
}

let sharedCache: AstParseCache | undefined;

/** The cache a call uses: the caller's own, or the process-wide one with this call's cap (none when the cap is 0). */
function cacheFor(options: AstSearchOptions, limits: AstSearchLimits): AstParseCache | undefined {
  if (options.cache) return options.cache;
  if (limits.cacheMaxBytes === 0) {
    sharedCache?.clear();
    return undefined;
  }
  sharedCache ??= new AstParseCache(limits.cacheMaxBytes);
  sharedCache.maxBytes = limits.cacheMaxBytes;
  return sharedCache;
}

function refused(
  error_code: AstSearchErrorCode,
  summary: string,
  status: 'error' | 'unavailable' = 'error',
): AstSearchFailure {
  return { success: false, error: summary, error_code, status, matches: [], summary, total: 0, truncated: false };
}

/**
 * Runs one structural search; every expected failure comes back as a `success: false` value (status `error` or
 * `unavailable`), never a throw. The request is typed as the schema's input and still validated at run time.
 */
export async function handleAstSearch(
  request: AstSearchInput,
  options: AstSearchOptions & Pick<ToolContext, 'parsedBy'>,
): Promise<AstSearchResponse> {
  const parsed = parseOnce(AstSearchRequest, request, options.parsedBy);
  if (!parsed.success)
    return refused('invalid_request', `Invalid ast_search request: ${describeZodError(parsed.error)}`);
  const { pattern, lang, max_results } = parsed.data;
  // An empty path is the workspace root, as everywhere in bough.
  const path = parsed.data.path === '' ? '.' : parsed.data.path;
  const limits = resolveAstSearchLimits(options.limits);
  const signal = options.signal;
  if (signal?.aborted) return refused('aborted', 'The search was cancelled before it started.');

  let workspace: Workspace;
  try {
    workspace = await Workspace.open(options.workspaceRoot, {
      ...(options.protectedNames ? { protectedNames: options.protectedNames } : {}),
      ...(options.linkRule ? { linkRule: options.linkRule } : {}),
    });
  } catch (error) {
    return refused('workspace_unavailable', `The workspace cannot be opened: ${errorMessage(error)}`);
  }
  const target = await workspace.resolve(path, 'read');
  if (!target.success) return refused(target.error_code, target.error);

  let engine: AstGrepEngine;
  try {
    engine = await loadAstGrep();
  } catch (error) {
    return refused('unavailable', `ast-grep could not be loaded: ${errorMessage(error)}`, 'unavailable');
  }
  const info = LANGUAGE_INFO[lang];
  const grammar = DYNAMIC_GRAMMARS.find((name: DynamicGrammar) => name === info.napiName);
  if (grammar && !engine.available.has(grammar)) {
    const why = engine.missing.get(grammar) ?? `the ${lang} grammar is not available`;
    return refused(
      'language_unavailable',
      `ast_search cannot parse ${lang} in this process: ${why}. Search another language, or use search (grep) for text.`,
      'unavailable',
    );
  }
  const compiled = compilePattern(engine.napi, info, pattern);
  if (!compiled.ok)
    return refused(
      'invalid_pattern',
      `${compiled.reason} Write the pattern as a complete ${lang} expression or statement.`,
    );

  const skips = emptySkips();
  let files: CandidateFile[];
  let listTruncated = false;
  if (target.kind === 'file') {
    files = [{ path: target.path, relative: target.relative }];
  } else {
    try {
      const listed = await listCandidates(workspace, target.path, new Set(info.extensions), skips, {
        maxEntries: limits.maxFiles,
        ...(signal ? { signal } : {}),
      });
      const hidden = options.hidden;
      files = hidden ? listed.files.filter((file) => !hidden(file.relative)) : listed.files;
      listTruncated = listed.truncated;
    } catch (error) {
      const failure = (error as { failure?: { error_code: AstSearchErrorCode; error: string } }).failure;
      if (failure) return refused(failure.error_code, failure.error);
      return refused('io_error', `Listing ${JSON.stringify(path)} failed: ${errorMessage(error)}`);
    }
  }
  if (signal?.aborted) return refused('aborted', 'The search was cancelled.');

  const cache = cacheFor(options, limits);
  const outcome = await searchFiles(engine.napi, info.napiName, compiled.matchers, files, workspace, skips, {
    limits,
    ...(cache ? { cache } : {}),
    maxResults: max_results,
    ...(signal ? { signal } : {}),
  });
  if (outcome.aborted) return refused('aborted', 'The search was cancelled.');

  const truncated = outcome.total > outcome.matches.length || outcome.stoppedEarly || listTruncated;
  const notes: string[] = [];
  if (outcome.stoppedEarly) {
    notes.push(
      `Stopped after ${outcome.filesSearched} of ${files.length} file(s) (time budget of ${limits.timeBudgetMs} ms); totals cover the searched files only — narrow the path.`,
    );
  }
  if (listTruncated) notes.push(`Only the first ${limits.maxFiles} ${lang} file(s) were considered; narrow the path.`);
  const skippedCount = skips.too_large + skips.binary + skips.unreadable;
  if (skippedCount > 0) notes.push(`${skippedCount} file(s) could not be searched (too large, binary or unreadable).`);
  const head =
    outcome.total === 0
      ? `No matches found in ${outcome.filesSearched} ${lang} file(s).`
      : `${outcome.total} match(es) found${outcome.total > outcome.matches.length ? ` (showing ${outcome.matches.length}/${outcome.total})` : ''}.`;
  return {
    success: true,
    status: outcome.total > 0 ? 'matches' : 'ok',
    matches: outcome.matches,
    summary: [head, ...notes].join(' '),
    total: outcome.total,
    truncated,
    files_searched: outcome.filesSearched,
    skipped: { ...skips },
  };
}
