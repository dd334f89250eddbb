import { isAbsolute } from 'node:path';
import { defineTool, type ProviderContext, type Tool, type ToolHooks, withHooks } from '@bough/core';
import { isWorkspaceFailure, type Workspace, type WorkspaceOptions } from '@bough/workspace';
import { checkBeforeEdit, GUARD_CODES, ownContent } from './edit-guard.js';
import { linesOf, occurrenceSpans, windowFromRows } from './internal/edit-spans.js';
import { patchTargets } from './internal/patch-targets.js';
import type { ToolSource } from './tool-sources.js';
import type { ToolkitState } from './toolkit-state.js';

/**
 * Wraps one standalone tool for a build: same name, description, request schema and handler; the handler runs
 * with the build's current root, reads and writes feed the file state, writes are checked against it first.
 */
export function wrapSource(
  source: ToolSource,
  state: ToolkitState,
  context: ProviderContext,
  rawOptions: Record<string, unknown>,
  hooks: ToolHooks,
): Tool {
  // The root is always the toolkit's (or its sandbox's): a caller-supplied workspace object would bypass both.
  const { workspace: _ignored, ...options } = rawOptions;
  // The guard and the evidence hash use the same protected-name policy as the wrapped tool.
  const gateOptions: WorkspaceOptions | undefined = options.protectedNames
    ? { protectedNames: options.protectedNames as NonNullable<WorkspaceOptions['protectedNames']> }
    : undefined;
  const first = source.make(state.workspaceRoot, context, options);
  if (first.name !== source.name) throw new Error(`Source ${source.name} built a tool named ${first.name}.`);
  if (source.role === 'branch') return withHooks(first, hooks);
  const byRoot = new Map<string, Tool>([[state.workspaceRoot, first]]);
  const toolFor = (root: string): Tool => {
    let tool = byRoot.get(root);
    if (!tool) {
      tool = source.make(root, context, options);
      byRoot.set(root, tool);
    }
    return tool;
  };
  return defineTool({
    name: first.name,
    description: first.description,
    request: first.request,
    ...(first.response ? { response: first.response } : {}),
    scope: 'branch',
    ...(first.annotations ? { annotations: first.annotations } : {}),
    hooks,
    handler: async (request, call) => {
      const root = state.currentRoot();
      const ws = await state.workspace(root, gateOptions).catch(() => undefined);
      if (source.role === 'write') {
        const refusal = ws
          ? await guardRequest(ws, state, request)
          : {
              success: false as const,
              error: 'The workspace could not be opened to verify the file before editing; nothing was changed.',
              error_code: GUARD_CODES.checkFailed,
            };
        if (refusal) return refusal;
      }
      const watch = source.role === 'write' && ws ? await state.diagnostics?.before(ws, request) : undefined;
      const result = await toolFor(root).handler(request, call);
      if (source.role === 'read') rememberRead(state, result, call.callId);
      if (ws && source.role === 'write') await rememberWrite(ws, state, request, result, call.callId);
      if (watch && isSuccess(result)) return { ...(result as object), ...(await watch.after()) };
      return result;
    },
  });
}

const isSuccess = (result: unknown) =>
  typeof result === 'object' && result !== null && (result as { success?: unknown }).success === true;

/** The guard for one editor request: every existing file it would change must be as this branch saw it. */
async function guardRequest(ws: Workspace, state: ToolkitState, request: unknown) {
  const r = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>;
  if (r.action === 'patch' && typeof r.patch === 'string') {
    for (const target of patchTargets(r.patch)) {
      // A patch may replace any part of a file, so each changed file must be wholly as read.
      const refusal = await checkBeforeEdit(ws, state.files, target.path, state.guardLimits, { action: 'write' });
      if (refusal) return refusal;
    }
    return undefined;
  }
  return checkBeforeEdit(ws, state.files, r.file_path, state.guardLimits, request);
}

/**
 * Records what a successful read showed. Only file content counts: converted documents and remote pages are not
 * evidence of the bytes on disk. A digest is kept when the reader computed one; the shown lines always are, so an
 * edit of those lines stays possible after something else changed other parts of the file. Nothing is hashed here.
 */
function rememberRead(state: ToolkitState, result: unknown, callId: string): void {
  if (typeof result !== 'object' || result === null) return;
  const many = (result as { results?: unknown }).results;
  if (Array.isArray(many)) {
    for (const item of many) rememberRead(state, item, callId);
    return;
  }
  const r = result as { success?: unknown; path?: unknown; sha256?: unknown; source?: unknown; type?: unknown };
  if (r.success !== true || typeof r.path !== 'string' || !isAbsolute(r.path)) return;
  if (r.source !== undefined && r.source !== 'file') return;
  if (typeof r.sha256 === 'string') state.files.record(r.path, r.sha256, callId, 'read');
  const { content, start_line: start } = result as { content?: unknown; start_line?: unknown };
  if (r.type !== 'text' || typeof content !== 'string' || typeof start !== 'number') return;
  const lines = windowFromRows(content, start);
  if (lines) state.files.recordWindow(r.path, start, lines, callId);
}

/**
 * Records what the toolkit's own successful write left on disk: its digest (and, for files small enough, its whole
 * text as a window), so the next edit needs no re-read. A dry run wrote nothing and records nothing.
 */
async function rememberWrite(ws: Workspace, state: ToolkitState, request: unknown, result: unknown, callId: string) {
  if (!isSuccess(result)) return;
  const r = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>;
  if (r.dry_run === true) return;
  const out = result as { path?: unknown; sha256?: unknown };
  if (r.action === 'patch' && typeof r.patch === 'string') {
    for (const target of patchTargets(r.patch)) {
      const resolved = await ws.resolve(target.path, 'write');
      if (isWorkspaceFailure(resolved)) continue;
      if (!resolved.exists) state.files.drop(resolved.path);
      else await rememberOwnContent(ws, state, resolved.path, undefined, callId);
    }
    return;
  }
  if (typeof out.path !== 'string' || !isAbsolute(out.path)) return;
  await rememberOwnContent(ws, state, out.path, typeof out.sha256 === 'string' ? out.sha256 : undefined, callId, r);
}

/**
 * After the toolkit's own write: the digest of what it wrote, and as line evidence what the model itself wrote —
 * the whole content of a `write`, the lines holding each `new_string` of an edit. Lines the model never saw do not
 * become evidence just because the toolkit rewrote the file around them.
 */
async function rememberOwnContent(
  ws: Workspace,
  state: ToolkitState,
  path: string,
  written: string | undefined,
  callId: string,
  request: Record<string, unknown> = {},
) {
  const own = await ownContent(ws, path, state.guardLimits, written === undefined);
  // The digest the editor reported is what it wrote; a different one now means someone else wrote since.
  const digest = written ?? own?.sha256;
  if (digest) state.files.record(path, digest, callId, 'write');
  if (own?.text === undefined || own.sha256 !== digest) return;
  const lines = linesOf(own.text);
  if (request.action === 'write') {
    state.files.recordWindow(path, 1, lines, callId);
    return;
  }
  const edits = request.action === 'multi_edit' && Array.isArray(request.edits) ? request.edits : [request];
  const text = own.text.replace(/\r\n/g, '\n');
  for (const edit of edits as { new_string?: unknown }[]) {
    if (typeof edit?.new_string !== 'string' || edit.new_string === '') continue;
    for (const span of occurrenceSpans(text, edit.new_string.replace(/\r\n/g, '\n')))
      state.files.recordWindow(path, span.start, lines.slice(span.start - 1, span.end), callId);
  }
}
