import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import { handleCodeNav, type NavOptions } from './handle-nav.js';
import { resolveNavLimits } from './limits.js';
import { NavCache } from './nav-cache.js';
import { navModelText, navSummary } from './render.js';
import { NavRequest, NavResponse } from './schema.js';
import { navTouches } from './touches.js';

/** Options of {@link createCodeNavTool}: the workspace root and optional limit overrides. */
export type CodeNavToolOptions = Omit<NavOptions, 'signal' | 'cache'>;

// Lean on purpose (it is sent with every request); an empty answer says what to try next.
const DESCRIPTION =
  'Navigate Python and TS/JS code (Go, C/C++ and others through a language server). outline: the classes, ' +
  'functions and methods of a file. find_definition, find_references: where `symbol` is defined or used, in a file ' +
  'or a directory. hover: its type and docs. rename (with `new_name`): a `patch` to apply with the editor; nothing ' +
  'is written.';

/** Builds the `code_nav` tool bound to one workspace root, with its own warm TypeScript project cache. */
export function createCodeNavTool(options: CodeNavToolOptions): Tool<NavRequest, NavResponse> {
  const limits = resolveNavLimits(options.limits); // once per build; a bad override throws here
  const cache = new NavCache();
  return defineTool({
    name: 'code_nav',
    description: DESCRIPTION,
    request: NavRequest,
    response: NavResponse,
    scope: 'stateless',
    annotations: { readOnlyHint: true },
    touches: navTouches,
    toModelText: navModelText,
    summarize: navSummary,
    handler: (request, context) =>
      handleCodeNav(request, { ...options, limits, cache, signal: context.signal, parsedBy: context.parsedBy }),
  });
}

/** A stateless provider handing out the `code_nav` tool. */
export function codeNavProvider(options: CodeNavToolOptions): Provider {
  return statelessProvider('code_nav', () => [createCodeNavTool(options)]);
}
