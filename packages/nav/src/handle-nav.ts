import { describeZodError, errorMessage, parseOnce, type ToolContext } from '@bough/core';
import type { LspClient } from '@bough/lsp';
import {
  type LinkRule,
  type ProtectedNamePolicy,
  readWorkspaceText,
  Workspace,
  WorkspaceError,
} from '@bough/workspace';
import { addWalkSkips, emptySkipCounts, extensionOf, type SkipCounts, skipReasonOf } from '@bough/workspace/internal';
import type { NavErrorCode } from './errors.js';
import { lspNav } from './internal/lsp-nav.js';
import { type LspSymbolAnswer, lspHover, lspRename } from './internal/lsp-symbol-actions.js';
import { loadPythonGrammar, type Napi } from './internal/python-grammar.js';
import { pythonDefinitions, pythonOutline, pythonReferences, pythonSyntaxError } from './internal/python-nav.js';
import { PYTHON_EXT, TS_EXT } from './internal/source.js';
import type { TreeFile, TreeListing } from './internal/tree-snapshot.js';
import { tsOutline, tsSyntaxError } from './internal/ts-outline.js';
import type { TsProject } from './internal/ts-project.js';
import { type NavLimits, resolveNavLimits } from './limits.js';
import { NavCache } from './nav-cache.js';
import { type NavInput, type NavItem, NavRequest, type NavResponse, type NavResponseFor } from './schema.js';

/** What the code_nav handler needs besides the request. */
export interface NavOptions {
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
  /** Overrides for {@link DEFAULT_NAV_LIMITS}. */
  readonly limits?: Partial<NavLimits>;
  /** Cancels the call between files. */
  readonly signal?: AbortSignal;
  /** Warm TypeScript projects; the tool passes its own so answers stay fast across calls. */
  readonly cache?: NavCache;
  /**
   * A language-server client (`@bough/lsp`) for files the in-process paths do not cover (Go, C/C++, Rust, …): with
   * it those files are answered by their server; without it they are `unsupported_language`. The caller owns it and
   * disposes it.
   */
  readonly lsp?: LspClient;
}

const fail = (error_code: NavErrorCode, error: string): NavResponse => ({
  success: false,
  items: [],
  error,
  error_code,
});

/**
 * The compiler, loaded on first use (importing @bough/nav loads none of it), with its standard library: the module
 * carries the `lib.*.d.ts` texts inside itself rather than as files, so a project is handed them (see ts-service-host).
 */
async function loadTs() {
  const mod = await import('@ts-morph/common');
  return { t: mod.ts, library: mod.getLibFiles };
}

type Action = Exclude<NavRequest['action'], 'hover' | 'rename'>;

function pythonItems(napi: Napi, text: string, action: Action, symbol: string, limits: NavLimits) {
  const root = napi.parse('python', text).root();
  if (action === 'outline') return pythonOutline(root);
  if (action === 'find_definition') return pythonDefinitions(root, symbol);
  return pythonReferences(root, symbol, text.split('\n'), limits.maxSignatureChars);
}

/**
 * Outline, definitions or references for Python and TS/JS; expected failures come back as values. The request is typed
 * as the schema's input (still validated at run time) and the response narrows by `success`.
 */
export async function handleCodeNav<R extends NavInput>(
  request: R,
  options: NavOptions & Pick<ToolContext, 'parsedBy'>,
): Promise<NavResponseFor<R['action']>> {
  const given = options.cache;
  if (given) return (await navResponse(request, { ...options, cache: given })) as NavResponseFor<R['action']>;
  // A cache made for this call alone is disposed with it: nothing else will ever ask its project again.
  const cache = new NavCache();
  try {
    return (await navResponse(request, { ...options, cache })) as NavResponseFor<R['action']>;
  } finally {
    cache.dispose();
  }
}

async function navResponse(
  request: NavInput,
  options: NavOptions & Pick<ToolContext, 'parsedBy'> & { readonly cache: NavCache },
): Promise<NavResponse> {
  const parsed = parseOnce(NavRequest, request, options.parsedBy);
  if (!parsed.success) return fail('invalid_request', `Invalid code_nav request: ${describeZodError(parsed.error)}`);
  const { action } = parsed.data;
  // An empty path is the workspace root, as everywhere in bough.
  const path = parsed.data.path === '' ? '.' : parsed.data.path;
  const symbol = parsed.data.symbol?.trim() ?? '';
  if (action !== 'outline' && !symbol)
    return fail('invalid_request', `'symbol' is required for ${action}; name the symbol to look up.`);
  const newName = parsed.data.new_name?.trim() ?? '';
  if (action === 'rename' && !newName)
    return fail('invalid_request', "'new_name' is required for rename; give the name the symbol should get.");
  if (options.signal?.aborted) return fail('aborted', 'The call was cancelled.');
  const limits = resolveNavLimits(options.limits);
  let workspace: Workspace;
  try {
    workspace = await Workspace.open(options.workspaceRoot, {
      ...(options.protectedNames ? { protectedNames: options.protectedNames } : {}),
      ...(options.linkRule ? { linkRule: options.linkRule } : {}),
    });
  } catch (error) {
    return fail('workspace_unavailable', `The workspace cannot be opened: ${errorMessage(error)}`);
  }
  const target = await workspace.resolve(path, 'read');
  if (!target.success) return fail(target.error_code, target.error);
  const cache = options.cache;
  if (action === 'hover' || action === 'rename') {
    const lsp = options.lsp;
    if (!lsp || (target.kind === 'file' && !lsp.supports(target.relative)))
      return fail(
        'unsupported_language',
        `${action} answers through a language server, and none is ${lsp ? `configured for ${target.relative}` : 'given (the `lsp` option)'}.`,
      );
    try {
      return await symbolAction(lsp, workspace, target, cache, { action, symbol, newName }, limits, options);
    } catch (error) {
      if (error instanceof WorkspaceError) return fail(error.failure.error_code, error.failure.error);
      return fail('nav_failed', `Navigation failed: ${errorMessage(error)}`);
    }
  }

  try {
    if (target.kind === 'file') {
      const ext = extensionOf(target.relative);
      const read = await readWorkspaceText(workspace, target.path, { maxBytes: limits.maxFileBytes });
      if (!read.success) return fail(read.error_code, read.error);
      if (PYTHON_EXT.has(ext)) {
        const napi = await loadPythonGrammar();
        const broken = pythonSyntaxError(napi.parse('python', read.text).root());
        if (broken)
          return fail('syntax_error', `SyntaxError in ${target.relative}: ${broken}. Fix it or use search instead.`);
        return finish(pythonItems(napi, read.text, action, symbol, limits), limits);
      }
      if (!TS_EXT.has(ext)) {
        if (options.lsp?.supports(target.relative)) {
          const request = { action, symbol, withFile: false };
          const inFile = (file: string) => file === target.relative;
          const found = await lspNav(
            options.lsp,
            workspace,
            [target.relative],
            inFile,
            request,
            limits,
            options.signal,
          );
          if (!found.ok) return fail(found.error_code, found.error);
          return finish(found.items, limits, found.notes);
        }
        return fail(
          'unsupported_language',
          `${target.relative} is not a Python or TypeScript/JavaScript file${options.lsp ? ' and no language server is configured for it' : ' (other languages need a language-server client, the `lsp` option)'}.`,
        );
      }
      const { t, library } = await loadTs();
      if (action === 'outline') {
        const source = t.createSourceFile(target.path, read.text, t.ScriptTarget.Latest, true);
        const broken = tsSyntaxError(t, source);
        if (broken) return fail('syntax_error', `Syntax error in ${target.relative}, ${broken}.`);
        return finish(tsOutline(t, source, limits.maxSignatureChars), limits);
      }
      const project = await tsProject({ t, library }, workspace, cache, limits);
      const items = tsLookup(project, action, symbol, limits);
      const notes = project.truncated
        ? [`The TypeScript project stopped at ${limits.maxProjectFiles} files; references may be incomplete.`]
        : [];
      return finish(
        items.filter((i) => i.file === target.relative).map(({ file: _file, ...rest }) => rest),
        limits,
        notes,
      );
    }
    // A directory: results across its Python and TS/JS files.
    const items: NavItem[] = [];
    const skipped = emptySkipCounts();
    const tree = await cache.tree(workspace.root, target.path).listing(workspace);
    const listed = pickSources(tree, limits.maxProjectFiles, skipped);
    const hidden = options.hidden;
    const sources = hidden ? listed.files.filter((file) => !hidden(file.relative)) : listed.files;
    const py = sources.filter((f) => PYTHON_EXT.has(extensionOf(f.relative)));
    const tsFiles = sources.filter((f) => TS_EXT.has(extensionOf(f.relative)));
    const notes: string[] = [];
    if (py.length > 0) {
      const napi = await loadPythonGrammar();
      for (const file of py) {
        if (options.signal?.aborted) return fail('aborted', 'The call was cancelled.');
        const read = await readWorkspaceText(workspace, file.path, { maxBytes: limits.maxFileBytes });
        if (!read.success) {
          skipped[skipReasonOf(read.error_code)]++;
          continue;
        }
        for (const item of pythonItems(napi, read.text, action, symbol, limits))
          items.push({ ...item, file: file.relative });
      }
    }
    const prefix = target.relative === '.' ? '' : `${target.relative}/`;
    if (tsFiles.length > 0) {
      const { t, library } = await loadTs();
      if (action === 'outline') {
        for (const file of tsFiles) {
          if (options.signal?.aborted) return fail('aborted', 'The call was cancelled.');
          const read = await readWorkspaceText(workspace, file.path, { maxBytes: limits.maxFileBytes });
          if (!read.success) {
            skipped[skipReasonOf(read.error_code)]++;
            continue;
          }
          const source = t.createSourceFile(file.path, read.text, t.ScriptTarget.Latest, true);
          for (const item of tsOutline(t, source, limits.maxSignatureChars))
            items.push({ ...item, file: file.relative });
        }
      } else {
        const project = await tsProject(
          { t, library },
          workspace,
          cache,
          limits,
          target.relative === '.' ? tree : undefined,
        );
        if (project.truncated)
          notes.push(`The TypeScript project stopped at ${limits.maxProjectFiles} files; results may be incomplete.`);
        const found = tsLookup(project, action, symbol, limits);
        items.push(...found.filter((i) => (i.file ?? '').startsWith(prefix)));
      }
    }
    if (options.lsp) {
      const others = lspSources(tree, options.lsp, limits.maxProjectFiles - listed.files.length);
      if (others.length > 0) {
        const within = (file: string) => prefix === '' || file.startsWith(prefix);
        const found = await lspNav(
          options.lsp,
          workspace,
          others,
          within,
          { action, symbol, withFile: true },
          limits,
          options.signal,
        );
        if (found.ok) {
          items.push(...found.items);
          notes.push(...found.notes);
        } else notes.push(found.error);
      }
    }
    if (listed.truncated) notes.push(`Only the first ${limits.maxProjectFiles} source file(s) were read.`);
    // The TypeScript project may reach files the listing left out: their results are not shown either.
    const shown = hidden ? items.filter((item) => item.file === undefined || !hidden(item.file)) : items;
    return finish(shown, limits, notes, skipped);
  } catch (error) {
    // A directory refused by the gate while being listed keeps the gate's own code; never relabelled.
    if (error instanceof WorkspaceError) return fail(error.failure.error_code, error.failure.error);
    return fail('nav_failed', `Navigation failed: ${errorMessage(error)}`);
  }
}

/**
 * hover and rename, through the language server: in one file, or across the files of a directory that a server
 * answers for and the in-process paths do not (Python and TS/JS files are named as a file path).
 */
async function symbolAction(
  lsp: LspClient,
  workspace: Workspace,
  target: { kind: 'file' | 'directory' | string; relative: string; path: string },
  cache: NavCache,
  request: { action: 'hover' | 'rename'; symbol: string; newName: string },
  limits: NavLimits,
  options: NavOptions,
): Promise<NavResponse> {
  const prefix = target.relative === '.' ? '' : `${target.relative}/`;
  const files =
    target.kind === 'file'
      ? [target.relative]
      : lspSources(await cache.tree(workspace.root, target.path).listing(workspace), lsp, limits.maxProjectFiles);
  const shown = options.hidden ? files.filter((file) => !options.hidden?.(file)) : files;
  const within = (file: string) => (prefix === '' || file.startsWith(prefix)) && !options.hidden?.(file);
  const answer: LspSymbolAnswer =
    request.action === 'hover'
      ? await lspHover(lsp, workspace, shown, within, request.symbol, limits, options.signal)
      : await lspRename(lsp, workspace, shown, within, request.symbol, request.newName, limits, options.signal);
  if (!answer.ok) return fail(answer.error_code, answer.error);
  // A rename also changes the callers the server found, wherever they are: its patch would show (and the editor
  // would write) a withheld file, so the whole rename is refused without naming it.
  if (
    answer.patch !== undefined &&
    answer.items.some((item) => item.file !== undefined && options.hidden?.(item.file))
  ) {
    return fail(
      'invalid_request',
      `Renaming ${request.symbol} would change files this workspace's policy withholds; nothing was planned or written.`,
    );
  }
  const items =
    target.kind === 'file' && request.action === 'hover'
      ? answer.items.map(({ file: _f, ...rest }) => rest)
      : answer.items;
  const done = finish(items, limits, answer.notes);
  return done.success && answer.patch !== undefined ? { ...done, patch: answer.patch } : done;
}

/** The Python and TS/JS files of a listing, at most `max` of them; what the walk left out is added to `skipped`. */
function pickSources(tree: TreeListing, max: number, skipped: SkipCounts): { files: TreeFile[]; truncated: boolean } {
  const files: TreeFile[] = [];
  let truncated = false;
  for (const file of tree.files) {
    const ext = extensionOf(file.relative);
    if (!PYTHON_EXT.has(ext) && !TS_EXT.has(ext)) continue;
    if (files.length >= max) truncated = true;
    else files.push(file);
  }
  addWalkSkips(skipped, tree.skipped);
  return { files, truncated };
}

/** Files of a listing that a language server answers for and the in-process paths do not, at most `max`. */
function lspSources(tree: TreeListing, lsp: LspClient, max: number): string[] {
  const out: string[] = [];
  for (const file of tree.files) {
    const ext = extensionOf(file.relative);
    if (PYTHON_EXT.has(ext) || TS_EXT.has(ext) || !lsp.supports(file.relative)) continue;
    if (out.length >= max) break;
    out.push(file.relative);
  }
  return out;
}

async function tsProject(
  { t, library }: Awaited<ReturnType<typeof loadTs>>,
  workspace: Workspace,
  cache: NavCache,
  limits: NavLimits,
  rootTree?: TreeListing,
): Promise<TsProject> {
  const project = cache.project(t, workspace.root, library);
  await project.refresh(
    t,
    workspace,
    limits,
    rootTree ?? (await cache.tree(workspace.root, workspace.root).listing(workspace)),
  );
  return project;
}

function tsLookup(project: TsProject, action: Action, symbol: string, limits: NavLimits): NavItem[] {
  return action === 'find_definition'
    ? project.definitions(symbol, limits.maxSignatureChars)
    : project.references(symbol, limits.maxSignatureChars);
}

function finish(items: NavItem[], limits: NavLimits, notes: string[] = [], skipped?: SkipCounts): NavResponse {
  const all = [...notes];
  if (items.length > limits.maxItems)
    all.unshift(`Showing ${limits.maxItems} of ${items.length} item(s); narrow the path.`);
  return {
    success: true,
    items: items.slice(0, limits.maxItems),
    ...(all.length > 0 ? { truncated: true, note: all.join(' ') } : {}),
    ...(skipped ? { skipped: { ...skipped } } : {}),
  };
}
