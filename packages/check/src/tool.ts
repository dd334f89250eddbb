import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import { CheckCache } from './check-cache.js';
import { type CodeCheckOptions, handleCodeCheck } from './handle-check.js';
import { resolveCodeCheckLimits } from './limits.js';
import { checkModelText, checkSummary } from './render.js';
import { CodeCheckRequest, CodeCheckResponse } from './schema.js';
import { codeCheckTouches } from './touches.js';

/** Options of {@link createCodeCheckTool}: the workspace root and optional limit overrides. */
export type CodeCheckToolOptions = Omit<CodeCheckOptions, 'signal' | 'cache' | 'progress'>;

// Lean on purpose (it is sent with every request); the answer's status and note say the rest.
const DESCRIPTION =
  'Diagnostics for Python (ruff) and TS/JS (TypeScript) with the workspace settings. Run it on the files you ' +
  'changed (no paths: the whole workspace).';

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
        parsedBy: context.parsedBy,
        ...(context.progress ? { progress: context.progress } : {}),
      }),
  });
}

/** A stateless provider handing out the `code_check` tool. */
export function codeCheckProvider(options: CodeCheckToolOptions): Provider {
  return statelessProvider('code_check', () => [createCodeCheckTool(options)]);
}
