import { describeZodError, errorMessage } from '@branchkit/core';
import { Workspace } from '@branchkit/workspace';
import { loadPythonGrammar, type Napi } from './internal/python-grammar.js';
import { pythonDefinitions, pythonOutline, pythonReferences, pythonSyntaxError } from './internal/python-nav.js';
import { extensionOf, listSources, PYTHON_EXT, readSource, TS_EXT } from './internal/source.js';
import { tsOutline, tsSyntaxError } from './internal/ts-outline.js';
import { NavCache } from './internal/ts-project.js';
import { type NavLimits, resolveNavLimits } from './limits.js';
import { type NavItem, NavRequest, type NavResponse } from './schema.js';

/** What the code_nav handler needs besides the request. */
export interface NavOptions {
  /** Directory every path is confined to. */
  readonly workspaceRoot: string;
  /** Overrides for {@link DEFAULT_NAV_LIMITS}. */
  readonly limits?: Partial<NavLimits>;
  /** Cancels the call between files. */
  readonly signal?: AbortSignal;
  /** Warm TypeScript projects; the tool passes its own so answers stay fast across calls. */
  readonly cache?: NavCache;
}

const fail = (error_code: string, error: string): NavResponse => ({ success: false, items: [], error, error_code });

async function loadTs() {
  const mod = await import('ts-morph');
  return mod.ts;
}

type Action = NavRequest['action'];

function pythonItems(napi: Napi, text: string, action: Action, symbol: string, limits: NavLimits) {
  const root = napi.parse('python', text).root();
  if (action === 'outline') return pythonOutline(root);
  if (action === 'find_definition') return pythonDefinitions(root, symbol);
  return pythonReferences(root, symbol, text.split('\n'), limits.maxSignatureChars);
}

/** Outline, definitions or references for Python and TS/JS; expected failures come back as values. */
export async function handleCodeNav(request: unknown, options: NavOptions): Promise<NavResponse> {
  const parsed = NavRequest.safeParse(request);
  if (!parsed.success) return fail('invalid_request', `Invalid code_nav request: ${describeZodError(parsed.error)}`);
  const { action, path } = parsed.data;
  const symbol = parsed.data.symbol?.trim() ?? '';
  if (action !== 'outline' && !symbol)
    return fail('invalid_request', `'symbol' is required for ${action}; name the symbol to look up.`);
  if (options.signal?.aborted) return fail('aborted', 'The call was cancelled.');
  const limits = resolveNavLimits(options.limits);
  let workspace: Workspace;
  try {
    workspace = await Workspace.open(options.workspaceRoot);
  } catch (error) {
    return fail('workspace_unavailable', `The workspace cannot be opened: ${errorMessage(error)}`);
  }
  const target = await workspace.resolve(path, 'read');
  if (!target.ok) return fail(target.error_code, target.error);

  try {
    if (target.kind === 'file') {
      const ext = extensionOf(target.relative);
      const read = await readSource(workspace, target.path, limits.maxFileBytes);
      if (!read.ok) return fail(read.error_code, read.error);
      if (PYTHON_EXT.has(ext)) {
        const napi = await loadPythonGrammar();
        const broken = pythonSyntaxError(napi.parse('python', read.text).root());
        if (broken)
          return fail('syntax_error', `SyntaxError in ${target.relative}: ${broken}. Fix it or use search instead.`);
        return finish(pythonItems(napi, read.text, action, symbol, limits), limits);
      }
      if (!TS_EXT.has(ext)) {
        return fail('unsupported_language', `${target.relative} is not a Python or TypeScript/JavaScript file.`);
      }
      const t = await loadTs();
      if (action === 'outline') {
        const source = t.createSourceFile(target.path, read.text, t.ScriptTarget.Latest, true);
        const broken = tsSyntaxError(t, source);
        if (broken) return fail('syntax_error', `Syntax error in ${target.relative}, ${broken}.`);
        return finish(tsOutline(t, source, limits.maxSignatureChars), limits);
      }
      const items = await tsSymbolItems(t, workspace, options, limits, action, symbol);
      return finish(
        items.filter((i) => i.file === target.relative).map(({ file: _file, ...rest }) => rest),
        limits,
      );
    }
    // A directory: results across its Python and TS/JS files.
    const items: NavItem[] = [];
    const py = await listSources(workspace, target.path, PYTHON_EXT, limits.maxProjectFiles);
    if (py.files.length > 0) {
      const napi = await loadPythonGrammar();
      for (const file of py.files) {
        if (options.signal?.aborted) return fail('aborted', 'The call was cancelled.');
        const read = await readSource(workspace, file.path, limits.maxFileBytes);
        if (!read.ok) continue;
        for (const item of pythonItems(napi, read.text, action, symbol, limits))
          items.push({ ...item, file: file.relative });
      }
    }
    const prefix = target.relative === '.' ? '' : `${target.relative}/`;
    const tsFiles = await listSources(workspace, target.path, TS_EXT, 1);
    if (tsFiles.files.length > 0) {
      const t = await loadTs();
      if (action === 'outline') {
        const all = await listSources(workspace, target.path, TS_EXT, limits.maxProjectFiles);
        for (const file of all.files) {
          const read = await readSource(workspace, file.path, limits.maxFileBytes);
          if (!read.ok) continue;
          const source = t.createSourceFile(file.path, read.text, t.ScriptTarget.Latest, true);
          for (const item of tsOutline(t, source, limits.maxSignatureChars))
            items.push({ ...item, file: file.relative });
        }
      } else {
        const found = await tsSymbolItems(t, workspace, options, limits, action, symbol);
        items.push(...found.filter((i) => (i.file ?? '').startsWith(prefix)));
      }
    }
    return finish(items, limits, py.truncated);
  } catch (error) {
    return fail('nav_failed', `Navigation failed: ${errorMessage(error)}`);
  }
}

async function tsSymbolItems(
  t: Awaited<ReturnType<typeof loadTs>>,
  workspace: Workspace,
  options: NavOptions,
  limits: NavLimits,
  action: Action,
  symbol: string,
): Promise<NavItem[]> {
  const project = (options.cache ?? new NavCache()).project(t, workspace.root);
  await project.refresh(t, workspace, limits);
  return action === 'find_definition'
    ? project.definitions(symbol, limits.maxSignatureChars)
    : project.references(symbol, limits.maxSignatureChars);
}

function finish(items: NavItem[], limits: NavLimits, truncated = false): NavResponse {
  const cut = items.length > limits.maxItems || truncated;
  return {
    success: true,
    items: items.slice(0, limits.maxItems),
    ...(cut
      ? {
          truncated: true,
          note: `Showing ${Math.min(items.length, limits.maxItems)} of ${items.length} item(s); narrow the path.`,
        }
      : {}),
  };
}
