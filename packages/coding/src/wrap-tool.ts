import { isAbsolute, join, resolve } from 'node:path';
import { defineTool, type ProviderContext, type Tool, type ToolHooks, withHooks } from '@bough/core';
import { patchFiles } from '@bough/editor';
import type { Workspace, WorkspaceOptions } from '@bough/workspace';
import { checkBeforeEdit, ownContent } from './edit-guard.js';
import { fail } from './errors.js';
import { type LineSpan, linesOf, occurrenceSpans, windowFromRows } from './internal/edit-spans.js';
import { confirmStamp, type PendingStamp, stampBeforeRead } from './internal/file-stamp.js';
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
  if (source.scope === 'branch') return withHooks(first, hooks);
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
      if (source.evidence === 'write') {
        const refusal = ws
          ? await guardRequest(ws, state, request)
          : fail(
              'guard_check_failed',
              'The workspace could not be opened to verify the file before editing; nothing was changed.',
            );
        if (refusal) return refusal;
      }
      const watch = source.evidence === 'write' && ws ? await state.diagnostics?.before(ws, request) : undefined;
      const stamp = source.evidence === 'read' ? await stampOfRead(root, state, request) : undefined;
      const result = await toolFor(root).handler(request, call);
      if (source.evidence === 'read') {
        rememberRead(state, result, call.callId);
        if (stamp) await rememberStamp(state, stamp, result, call.callId);
      }
      if (ws && source.evidence === 'write') await rememberWrite(ws, state, request, result, call.callId);
      if (watch && isSuccess(result)) return { ...(result as object), ...(await watch.after()) };
      return result;
    },
  });
}

const isSuccess = (result: unknown) =>
  typeof result === 'object' && result !== null && (result as { success?: unknown }).success === true;

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** The guard for one editor request: every existing file it would change must be as this branch saw it. */
async function guardRequest(ws: Workspace, state: ToolkitState, request: unknown) {
  const r = asRecord(request);
  // A whole-file replacement as far as evidence goes: every current line must be as read.
  const whole = { action: 'write' };
  if (r.action === 'patch' && typeof r.patch === 'string') {
    // The editor's own parser names the files, so the guard checks exactly what would change; a patch it cannot
    // parse is refused by the editor before anything is written.
    const parsed = patchFiles(r.patch);
    for (const target of parsed.ok ? parsed.files : []) {
      const refusal = await checkBeforeEdit(ws, state.files, target.path, state.guardLimits, whole);
      if (refusal) return refusal;
    }
    return undefined;
  }
  // A rename keeps the content; only a file it would overwrite loses something the model must have seen.
  if (r.action === 'move')
    return r.overwrite === true ? checkBeforeEdit(ws, state.files, r.destination, state.guardLimits, whole) : undefined;
  if (r.action === 'mkdir') return undefined;
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
    // read_many: `{ path, result }` per path asked, each a read of its own.
    for (const item of many) rememberRead(state, asRecord(item).result ?? item, callId);
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

/** Before a single-file read of a big file: its stamp, to be confirmed once the read is done. */
async function stampOfRead(root: string, state: ToolkitState, request: unknown): Promise<PendingStamp | undefined> {
  const r = asRecord(request);
  if (r.action !== 'read' || typeof r.path !== 'string' || r.path === '' || /^[a-z]+:\/\//i.test(r.path))
    return undefined;
  return stampBeforeRead(resolve(root, r.path), state.guardLimits.guardStampMinBytes);
}

/**
 * After a read the reader did not hash (a big file): the stamp taken before the read, if the file the reader
 * opened still carries it — the lines shown are then what that stamp stands for.
 */
async function rememberStamp(state: ToolkitState, pending: PendingStamp, result: unknown, callId: string) {
  const r = asRecord(result);
  if (r.success !== true || r.type !== 'text' || typeof r.sha256 === 'string') return;
  if (typeof r.path !== 'string' || !isAbsolute(r.path) || (r.source !== undefined && r.source !== 'file')) return;
  const stamp = await confirmStamp(pending, r.path);
  if (stamp) state.files.recordStamp(r.path, stamp, callId);
}

/** Lines of the new content the model wrote itself: `all` of it, or ranges (1-based, inclusive). */
type Written = 'all' | readonly { start: number; end: number }[];

/** Ranges from the editor's `{ start_line, end_line }` records, skipping malformed ones. */
function rangesOf(items: unknown): { start: number; end: number }[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) => {
    const { start_line: start, end_line: end } = asRecord(item);
    return typeof start === 'number' && typeof end === 'number' && start >= 1 && end >= start ? [{ start, end }] : [];
  });
}

/**
 * Records what the toolkit's own successful change left on disk: each file's digest (and, for files small enough,
 * the lines the model wrote), so the next edit needs no re-read; a move carries the evidence to the new path, a
 * delete drops it. A dry run wrote nothing and records nothing.
 */
async function rememberWrite(ws: Workspace, state: ToolkitState, request: unknown, result: unknown, callId: string) {
  if (!isSuccess(result)) return;
  const r = asRecord(request);
  const out = asRecord(result);
  if (r.dry_run === true || out.dry_run === true) return;
  if (out.action === 'mkdir') return;
  if (out.action === 'move') {
    if (typeof out.from === 'string' && typeof out.path === 'string')
      state.files.move(join(ws.root, out.from), out.path);
    return;
  }
  if (out.action === 'patch' && Array.isArray(out.files)) {
    for (const file of out.files.map(asRecord)) {
      if (typeof file.relative !== 'string') continue;
      const path = join(ws.root, file.relative);
      if (file.op === 'move' && typeof file.from === 'string') state.files.drop(join(ws.root, file.from));
      if (file.op === 'delete') state.files.drop(path);
      else
        await rememberOwnContent(ws, state, path, undefined, callId, file.op === 'add' ? 'all' : rangesOf(file.hunks));
    }
    return;
  }
  if (typeof out.path !== 'string' || !isAbsolute(out.path)) return;
  const written: Written =
    r.action === 'write' ? 'all' : r.action === 'multi_edit' ? rangesOf(out.edits) : rangesOf([out]);
  await rememberOwnContent(
    ws,
    state,
    out.path,
    typeof out.sha256 === 'string' ? out.sha256 : undefined,
    callId,
    written,
    r,
  );
}

/**
 * After the toolkit's own write: the digest of what it wrote, and as line evidence what the model itself wrote.
 * Lines the model never saw do not become evidence just because the toolkit rewrote the file around them.
 */
async function rememberOwnContent(
  ws: Workspace,
  state: ToolkitState,
  path: string,
  digest: string | undefined,
  callId: string,
  written: Written,
  request: Record<string, unknown> = {},
) {
  const own = await ownContent(ws, path, state.guardLimits, digest === undefined);
  // The digest the editor reported is what it wrote; a different one now means someone else wrote since.
  const sha256 = digest ?? own?.sha256;
  if (sha256) state.files.record(path, sha256, callId, 'write');
  if (own?.text === undefined || own.sha256 !== sha256) return;
  const lines = linesOf(own.text);
  if (written === 'all') {
    state.files.recordWindow(path, 1, lines, callId);
    return;
  }
  // An editor that does not say where its new text went: the lines now holding each new_string.
  const spans = written.length > 0 ? written : newTextSpans(own.text, request);
  for (const span of spans) state.files.recordWindow(path, span.start, lines.slice(span.start - 1, span.end), callId);
}

/** Lines holding each `new_string` of an edit or multi_edit request, located in the new text. */
function newTextSpans(text: string, request: Record<string, unknown>): LineSpan[] {
  const edits = request.action === 'multi_edit' && Array.isArray(request.edits) ? request.edits : [request];
  const lf = text.replace(/\r\n/g, '\n');
  return edits.flatMap((edit) => {
    const next = asRecord(edit).new_string;
    return typeof next === 'string' && next !== '' ? occurrenceSpans(lf, next.replace(/\r\n/g, '\n')) : [];
  });
}
