import { describeZodError, errorMessage, parseOnce, type ToolContext, type ToolProgress } from '@bough/core';
import type { LspClient } from '@bough/lsp';
import { type LinkRule, type ProtectedNamePolicy, Workspace } from '@bough/workspace';
import { CheckCache } from './check-cache.js';
import type { CodeCheckErrorCode } from './errors.js';
import { diagnosticLine, headline } from './format.js';
import { collectFiles } from './internal/collect-files.js';
import { runLsp } from './internal/run-lsp.js';
import type { EngineResult } from './internal/run-ruff.js';
import { runRuff } from './internal/run-ruff.js';
import { runTypeScript } from './internal/run-typescript.js';
import { type CodeCheckLimits, resolveCodeCheckLimits } from './limits.js';
import { type CodeCheckFailure, type CodeCheckInput, CodeCheckRequest, type CodeCheckResponse } from './schema.js';

/** What the code_check handler needs besides the request. */
export interface CodeCheckOptions {
  /** Directory every path is confined to; empty `paths` means this root. */
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
  /** Overrides for {@link DEFAULT_CODE_CHECK_LIMITS}. */
  readonly limits?: Partial<CodeCheckLimits>;
  /** Cancels the check between files. */
  readonly signal?: AbortSignal;
  /** Receives per-file progress of long checks (the CLI shows it as a counter). */
  readonly progress?: (update: ToolProgress) => void;
  /** Parsed TypeScript trees kept between calls; the tool passes its own so repeated checks stay fast. */
  readonly cache?: CheckCache;
  /**
   * A language-server client (`@bough/lsp`) for files ruff and TypeScript do not cover (Go, C/C++, …): with it, `auto`
   * checks those files through their server and awaits the diagnostics of the text on disk. The caller owns it.
   */
  readonly lsp?: LspClient;
}

function refused(tool: string, error_code: CodeCheckErrorCode, summary: string): CodeCheckFailure {
  return { success: false, error: summary, error_code, status: 'error', diagnostics: [], summary, tool, total: 0 };
}

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const;

// The same order as String.prototype.localeCompare with no arguments, without building a collator per comparison.
const byFileName = new Intl.Collator().compare;

/**
 * Runs ruff and/or the TypeScript compiler over workspace files; expected failures come back as values. The request
 * is typed as the schema's input (it is still validated at run time, since it may come from a model), and the
 * response narrows by `success`.
 */
export async function handleCodeCheck(
  request: CodeCheckInput,
  options: CodeCheckOptions & Pick<ToolContext, 'parsedBy'>,
): Promise<CodeCheckResponse> {
  const parsed = parseOnce(CodeCheckRequest, request, options.parsedBy);
  if (!parsed.success)
    return refused('auto', 'invalid_request', `Invalid code_check request: ${describeZodError(parsed.error)}`);
  const { paths, tool, max_diagnostics } = parsed.data;
  const limits = resolveCodeCheckLimits(options.limits);
  const signal = options.signal;
  const deadline = Date.now() + limits.timeBudgetMs;
  if (signal?.aborted) return refused(tool, 'aborted', 'The check was cancelled before it started.');

  let workspace: Workspace;
  try {
    workspace = await Workspace.open(options.workspaceRoot, {
      ...(options.protectedNames ? { protectedNames: options.protectedNames } : {}),
      ...(options.linkRule ? { linkRule: options.linkRule } : {}),
    });
  } catch (error) {
    return refused(tool, 'workspace_unavailable', `The workspace cannot be opened: ${errorMessage(error)}`);
  }
  const lsp = tool === 'auto' ? options.lsp : undefined;
  const wanted = {
    python: tool !== 'typescript',
    typescript: tool !== 'ruff',
    ...(lsp ? { lsp: (relative: string) => lsp.supports(relative) } : {}),
  };
  const collected = await collectFiles(workspace, paths, wanted, {
    maxFiles: limits.maxFiles,
    ...(signal ? { signal } : {}),
  });
  if ('error_code' in collected) return refused(tool, collected.error_code, collected.error);

  const runs: Array<{ name: string; result: EngineResult }> = [];
  if (collected.python.length > 0) {
    runs.push({
      name: 'ruff',
      result: await runRuff(workspace, collected.python, limits, deadline, signal, options.progress),
    });
  }
  if (collected.typescript.length > 0 && !signal?.aborted) {
    runs.push({
      name: 'typescript',
      result: await runTypeScript(workspace, collected.typescript, limits, deadline, options.cache ?? new CheckCache()),
    });
  }
  if (lsp && collected.lsp.length > 0 && !signal?.aborted) {
    runs.push({ name: 'lsp', result: await runLsp(lsp, collected.lsp, limits, deadline, signal) });
  }
  if (signal?.aborted) return refused(tool, 'aborted', 'The check was cancelled.');
  const toolLabel = runs.length > 0 ? runs.map((r) => r.name).join('+') : tool;

  const unavailable = runs.filter((r) => r.result.unavailable);
  if (unavailable.length > 0 && unavailable.length === runs.length) {
    const summary = unavailable.map((r) => r.result.unavailable).join(' ');
    return {
      success: false,
      error: summary,
      error_code: 'unavailable',
      status: 'unavailable',
      diagnostics: [],
      summary,
      tool: toolLabel,
      total: 0,
    };
  }
  const hidden = options.hidden;
  const found = runs.flatMap((r) => r.result.diagnostics);
  const all = hidden ? found.filter((d) => !hidden(d.file)) : found;
  all.sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      byFileName(a.file, b.file) ||
      a.line - b.line ||
      a.col - b.col,
  );
  const shown = all.slice(0, max_diagnostics);
  const skipped = { ...collected.skipped };
  for (const run of runs)
    for (const [key, count] of Object.entries(run.result.skipped)) skipped[key as keyof typeof skipped] += count;
  const notes = runs.flatMap((r) => [...(r.result.unavailable ? [r.result.unavailable] : []), ...r.result.notes]);
  const notReached = runs.reduce((n, r) => n + r.result.notReached, 0);
  if (notReached > 0) {
    notes.push(
      `Stopped at the ${limits.timeBudgetMs} ms budget with ${notReached} file(s) not checked; pass fewer paths.`,
    );
  }
  if (collected.truncated) notes.push(`Only the first ${limits.maxFiles} file(s) were checked; pass narrower paths.`);
  if (runs.length === 0) {
    const which =
      tool === 'auto' ? 'Python or TypeScript/JavaScript' : tool === 'ruff' ? 'Python' : 'TypeScript/JavaScript';
    notes.push(
      `No ${which} files were found to check${collected.unsupported > 0 ? ' (the named files have other types)' : ''}.`,
    );
  }
  return {
    success: true,
    status: all.length > 0 ? 'diagnostics' : 'ok',
    diagnostics: shown,
    summary: [headline(all.length, shown.length), ...notes].join(' '),
    tool: toolLabel,
    total: all.length,
    ...(shown.length > 0 ? { text: shown.map(diagnosticLine).join('\n') } : {}),
    files_checked: runs.reduce((n, r) => n + r.result.filesChecked, 0),
    skipped,
  };
}
