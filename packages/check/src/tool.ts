import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import { CheckCache } from './check-cache.js';
import { type CodeCheckOptions, handleCodeCheck } from './handle-check.js';
import { resolveCodeCheckLimits } from './limits.js';
import { checkModelText, checkSummary } from './render.js';
import { CodeCheckRequest, CodeCheckResponse } from './schema.js';
import { codeCheckTouches } from './touches.js';

/** Options of {@link createCodeCheckTool}: the workspace root and optional limit overrides. */
export type CodeCheckToolOptions = Omit<CodeCheckOptions, 'signal' | 'cache' | 'progress'>;

const DESCRIPTION =
  'Static diagnostics for code in the workspace: ruff for Python (the workspace ruff.toml / pyproject.toml settings ' +
  'apply) and the TypeScript compiler for .ts/.tsx/.js/.jsx (the root tsconfig.json applies). Run it after editing ' +
  'to catch syntax errors, undefined names, unused imports and type errors. Pass the files you changed; empty paths ' +
  'check the whole workspace. success is true when the checkers ran: status "diagnostics" lists file:line:col ' +
  'findings, "ok" means clean; on success false (status "error") fix the path named in the error.';

/** Builds the `code_check` tool bound to one workspace root, with its own cache of parsed TypeScript trees. */
export function createCodeCheckTool(options: CodeCheckToolOptions): Tool<CodeCheckRequest, CodeCheckResponse> {
  const limits = resolveCodeCheckLimits(options.limits); // once per build; a bad override throws here
  const cache = new CheckCache();
  return defineTool({
    name: 'code_check',
    description: DESCRIPTION,
    request: CodeCheckRequest,
    response: CodeCheckResponse,
    scope: 'stateless',
    annotations: { readOnlyHint: true },
    touches: codeCheckTouches,
    toModelText: checkModelText,
    summarize: checkSummary,
    handler: (request, context) =>
      handleCodeCheck(request, {
        ...options,
        limits,
        cache,
        signal: context.signal,
        ...(context.progress ? { progress: context.progress } : {}),
      }),
  });
}

/** A stateless provider handing out the `code_check` tool. */
export function codeCheckProvider(options: CodeCheckToolOptions): Provider {
  return statelessProvider('code_check', () => [createCodeCheckTool(options)]);
}
