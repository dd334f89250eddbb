import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import { handleCodeNav, type NavOptions } from './handle-nav.js';
import { resolveNavLimits } from './limits.js';
import { NavCache } from './nav-cache.js';
import { navModelText, navSummary } from './render.js';
import { NavRequest, NavResponse } from './schema.js';
import { navTouches } from './touches.js';

/** Options of {@link createCodeNavTool}: the workspace root and optional limit overrides. */
export type CodeNavToolOptions = Omit<NavOptions, 'signal' | 'cache'>;

const DESCRIPTION =
  'Code navigation for Python and TypeScript/JavaScript. action "outline" lists classes, functions and methods of ' +
  'a file (with signatures); "find_definition" and "find_references" take a `symbol`. Give a file path to stay in ' +
  'that file, or a directory to search across the project. TS/JS lookups are semantic (TypeScript language service); ' +
  'Python lookups are syntactic (same-named occurrences). An empty list means the symbol was not found — check the ' +
  'spelling or widen the path.';

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
    handler: (request, context) => handleCodeNav(request, { ...options, limits, cache, signal: context.signal }),
  });
}

/** A stateless provider handing out the `code_nav` tool. */
export function codeNavProvider(options: CodeNavToolOptions): Provider {
  return statelessProvider('code_nav', () => [createCodeNavTool(options)]);
}
