import { dirname, posix } from 'node:path';
import { describeZodError, parseOnce, type ToolContext } from '@bough/core';
import { isWorkspaceFailure, type LinkRule, type ProtectedNamePolicy, Workspace } from '@bough/workspace';
import { failure } from './errors.js';
import { find } from './find.js';
import { grep } from './grep.js';
import { checkGlob } from './internal/include-glob.js';
import { loadRgPath } from './internal/run-rg.js';
import type { SearchContext } from './internal/search-context.js';
import { DEFAULT_SEARCH_LIMITS, defaultResults, resolveSearchLimits, type SearchLimits } from './limits.js';
import {
  makeSearchRequest,
  type SearchInput,
  SearchRequest,
  type SearchResponse,
  type SearchResponseFor,
} from './schema.js';

/** Schemas built for configured limits, by the resolved limits object they were built for. */
const configured = new WeakMap<SearchLimits, typeof SearchRequest>();

/**
 * The request schema whose `max_results` ceiling is the configured limit (the shared default schema when unchanged).
 * Built once per resolved limits object, so a tool and each of its calls use the same schema, and the request the
 * registry parsed with it is not parsed again ({@link parseOnce}).
 */
export function requestSchemaFor(limits: SearchLimits): typeof SearchRequest {
  const defaults = { grep: defaultResults('grep', limits), find: defaultResults('find', limits) };
  const standard =
    limits.maxResults === DEFAULT_SEARCH_LIMITS.maxResults &&
    defaults.grep === DEFAULT_SEARCH_LIMITS.grepResults &&
    defaults.find === DEFAULT_SEARCH_LIMITS.findResults;
  if (standard) return SearchRequest;
  let schema = configured.get(limits);
  if (!schema) {
    schema = makeSearchRequest(limits.maxResults, defaults);
    configured.set(limits, schema);
  }
  return schema;
}

/** How a search tool is configured. */
export interface SearchOptions {
  /** The workspace root; every searched path must resolve inside it. */
  readonly workspaceRoot: string;
  /** Overrides for {@link DEFAULT_SEARCH_LIMITS}. */
  readonly limits?: Partial<SearchLimits>;
  /** Names never searched or listed (default: the workspace's protected-name policy). */
  readonly protectedNames?: ProtectedNamePolicy;
  /** A ripgrep binary to use instead of the one shipped by `@vscode/ripgrep`. */
  readonly rgPath?: string;
  /**
   * Where a symbolic link on a requested path may lead (the workspace's `linkRule`): a permission policy's path rules
   * applied to the real path the gate reached. The coding toolkit sets it from its policy.
   */
  readonly linkRule?: LinkRule;
  /**
   * Paths a permission policy withholds (given each result's workspace-relative path): their matches and names are
   * never shown, and count as withheld like protected files. The coding toolkit sets it from its policy.
   */
  readonly hidden?: (relative: string) => boolean;
}

/** Options of one call: the tool's configuration plus the call's cancellation signal. */
export interface SearchCallOptions extends SearchOptions {
  readonly signal?: AbortSignal;
}

/**
 * Runs one grep or find inside the workspace; refusals and bad input come back as typed failures, and a search
 * that runs out of time returns what it found so far.
 */
export async function handleSearch<R extends SearchInput>(
  request: R,
  options: SearchCallOptions & Pick<ToolContext, 'parsedBy'>,
): Promise<SearchResponseFor<R['action']>> {
  return (await searchResponse(request, options)) as SearchResponseFor<R['action']>;
}

async function searchResponse(
  request: SearchInput,
  options: SearchCallOptions & Pick<ToolContext, 'parsedBy'>,
): Promise<SearchResponse> {
  const limits = resolveSearchLimits(options.limits);
  const parsed = parseOnce(requestSchemaFor(limits), request, options.parsedBy);
  if (!parsed.success) return failure('invalid_request', `Invalid search request: ${describeZodError(parsed.error)}`);
  const req = parsed.data;
  // The per-action default never exceeds a lower configured ceiling: a request that names no max_results is valid.
  const maxResults = req.max_results ?? defaultResults(req.action, limits);
  if (req.pattern.length > limits.maxPatternLength) {
    return failure('invalid_request', `The pattern is longer than ${limits.maxPatternLength} characters.`);
  }
  if (req.action === 'grep' && /[\u0000]/.test(req.pattern)) {
    return failure('invalid_pattern', 'The pattern contains a NUL character, which cannot be searched for.');
  }
  const badGlob =
    (req.include !== undefined ? checkGlob('include', req.include, limits.maxPatternLength) : undefined) ??
    (req.action === 'find' ? checkGlob('pattern', req.pattern, limits.maxPatternLength) : undefined);
  if (badGlob) return badGlob;

  let workspace: Workspace;
  try {
    workspace = await Workspace.open(options.workspaceRoot, {
      ...(options.protectedNames ? { protectedNames: options.protectedNames } : {}),
      ...(options.linkRule ? { linkRule: options.linkRule } : {}),
    });
  } catch {
    return failure(
      'workspace_unavailable',
      'The workspace root of this tool is not an existing directory, so nothing can be searched. Ask the user to fix the set-up.',
    );
  }
  // The blank-path rule: missing and "" mean the workspace root; a whitespace-only path is refused by the gate.
  const where = await workspace.resolve(req.path === undefined || req.path === '' ? '.' : req.path, 'read');
  if (isWorkspaceFailure(where)) return failure(where.error_code, where.error);
  if (where.kind !== 'file' && where.kind !== 'directory') {
    return failure('not_found', `Nothing to search at ${JSON.stringify(where.relative)}. Check the path.`);
  }
  const rgPath = await loadRgPath(options.rgPath);
  if (typeof rgPath !== 'string') return rgPath;

  const isDir = where.kind === 'directory';
  const relative = where.relative === '.' ? '' : where.relative;
  const ctx: SearchContext = {
    request: req,
    limits,
    maxResults,
    rgPath,
    workspaceRoot: workspace.root,
    workspace,
    cwd: isDir ? where.path : dirname(where.path),
    target: isDir ? '.' : posix.basename(relative),
    prefix: isDir ? relative : posix.dirname(relative) === '.' ? '' : posix.dirname(relative),
    ...(options.protectedNames ? { policy: options.protectedNames } : {}),
    ...(options.hidden ? { hidden: options.hidden } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  return req.action === 'grep' ? grep(ctx) : find(ctx);
}
