import { resolve } from 'node:path';
import {
  ConfigurationError,
  defineTool,
  type ProviderContext,
  type Tool,
  type ToolContext,
  type ToolHooks,
  type Touches,
  touchesOf,
  withHooks,
} from '@bough/core';
import type { KnownFile } from '@bough/editor';
import type { Workspace, WorkspaceOptions } from '@bough/workspace';
import { CallFiles } from './call-files.js';
import { withArgumentAliases } from './dialects/argument-aliases.js';
import { checkBeforeEdit, ownContent } from './edit-guard.js';
import { fail } from './errors.js';
import { type LineSpan, linesOf, occurrenceSpans, windowFromRows } from './internal/edit-spans.js';
import { confirmStamp, type PendingStamp, stampBeforeRead } from './internal/file-stamp.js';
import type { ReadEvidenceOf, WriteEffect, WriteEvidenceOf, WrittenLines } from './source-evidence.js';
import type { AnyToolSource } from './tool-sources.js';
import type { ToolkitState } from './toolkit-state.js';

/**
 * Wraps one standalone tool for a build: same name, description, request schema and handler; the handler runs
 * with the build's current root, reads and writes feed the file state, writes are checked against it first. What a
 * call reads or writes comes from the source's own evidence extractor: nothing here knows a tool's result shape.
 */
export function wrapSource(
  source: AnyToolSource,
  state: ToolkitState,
  context: ProviderContext,
  rawOptions: Record<string, unknown>,
  hooks: ToolHooks,
): Tool {
  // The root is always the toolkit's (or its sandbox's): a caller-supplied workspace object would bypass both.
  const { workspace: _ignored, ...own } = rawOptions;
  // A tool that changes files shares them with the guard and the file state call by call (the editor reads this as its
  // `exchange` option): the guard's read of a file is the one the tool edits, and what it wrote is recorded as is.
  const files = source.evidence.kind === 'write' ? new CallFiles() : undefined;
  const options: Record<string, unknown> = files ? { ...own, exchange: files } : own;
  // The guard and the evidence hash use the same protected-name policy and link rule as the wrapped tool (the toolkit
  // puts its one policy in every file tool's options), so the guard refuses no less than the tool's own gate.
  const { protectedNames: policy, linkRule } = options as Pick<WorkspaceOptions, 'protectedNames' | 'linkRule'>;
  const gateOptions: WorkspaceOptions | undefined =
    policy || linkRule
      ? { ...(policy ? { protectedNames: policy } : {}), ...(linkRule ? { linkRule } : {}) }
      : undefined;
  const first = source.make(state.workspaceRoot, context, options);
  if (first.name !== source.name)
    throw new ConfigurationError(`Source ${source.name} built a tool named ${first.name}.`);
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
  const evidence = source.evidence;
  const reads = evidence.kind === 'read' ? evidence : undefined;
  const writes = evidence.kind === 'write' ? evidence : undefined;
  return defineTool({
    name: first.name,
    description: first.description,
    // Argument names other harnesses use (path, old_str, cmd …) are renamed before validation, never advertised.
    request: withArgumentAliases(first.name, first.request),
    ...(first.response ? { response: first.response } : {}),
    scope: 'branch',
    ...(first.annotations ? { annotations: first.annotations } : {}),
    ...(first.touches ? { touches: first.touches } : {}),
    ...(first.toModelText ? { toModelText: first.toModelText } : {}),
    ...(first.summarize ? { summarize: first.summarize } : {}),
    hooks,
    handler: async (request, call) => {
      try {
        return await run(request, call);
      } finally {
        files?.end(call.callId);
      }
    },
  });

  async function run(request: unknown, call: ToolContext): Promise<unknown> {
    const root = state.currentRoot();
    // Only a tool that writes needs the gate here (for the guard and to record what it wrote).
    const ws = writes ? await state.workspace(root, gateOptions).catch(() => undefined) : undefined;
    // What a write touches, worked out once for the guard and the diagnostics (the executor's, when it has it).
    const touches = writes ? (call.touches ?? touchesOf(first, request)) : undefined;
    if (writes) {
      const refusal = ws
        ? await guardRequest(ws, state, writes, request, touches, files?.offerFor(call.callId))
        : fail(
            'guard_check_failed',
            'The workspace could not be opened to verify the file before editing; nothing was changed.',
          );
      if (refusal) return refusal;
    }
    const watch = writes && ws ? await state.diagnostics?.before(ws, writes.checkedPaths(request, touches)) : undefined;
    const stamp = reads ? await stampOfRead(root, state, reads, request) : undefined;
    const result = await toolFor(root).handler(request, call);
    if (reads) {
      const shown = reads.reads(result);
      for (const read of shown) {
        if (read.sha256 !== undefined) state.files.record(read.path, read.sha256, call.callId, 'read');
        const lines = read.rows ? windowFromRows(read.rows.content, read.rows.start) : undefined;
        if (read.rows && lines) state.files.recordWindow(read.path, read.rows.start, lines, call.callId);
      }
      // A big file the reader did not hash: the stamp taken before the read, if the file opened still carries it.
      const only = shown.length === 1 ? shown[0] : undefined;
      if (stamp && only?.rows && only.sha256 === undefined) {
        const confirmed = await confirmStamp(stamp, only.path);
        if (confirmed) state.files.recordStamp(only.path, confirmed, call.callId);
      }
    }
    if (ws && writes) {
      for (const effect of writes.effects(request, result, ws.root))
        await rememberWrite(ws, state, effect, call.callId, files);
    }
    if (watch && isSuccess(result)) return { ...(result as object), ...(await watch.after()) };
    return result;
  }
}

/** Every response carries `success` (the core contract), so this holds for any tool. */
const isSuccess = (result: unknown) =>
  typeof result === 'object' && result !== null && (result as { success?: unknown }).success === true;

/** The guard for one write request: every existing file it would change must be as this branch saw it. */
async function guardRequest(
  ws: Workspace,
  state: ToolkitState,
  writes: WriteEvidenceOf<unknown, unknown>,
  request: unknown,
  touches: Touches | undefined,
  offer?: (filePath: string, known: KnownFile) => void,
) {
  for (const target of writes.targets(request, touches)) {
    const path = target.path;
    const onRead = offer && typeof path === 'string' ? (known: KnownFile) => offer(path, known) : undefined;
    const refusal = await checkBeforeEdit(ws, state.files, path, state.guardLimits, target.change, onRead);
    if (refusal) return refusal;
  }
  return undefined;
}

/** Before a single-file read of a big file: its stamp, to be confirmed once the read is done. */
async function stampOfRead(
  root: string,
  state: ToolkitState,
  reads: ReadEvidenceOf<unknown, unknown>,
  request: unknown,
): Promise<PendingStamp | undefined> {
  const path = reads.stampPath?.(request);
  return path === undefined ? undefined : stampBeforeRead(resolve(root, path), state.guardLimits.guardStampMinBytes);
}

/**
 * Records what the toolkit's own successful change left on disk: each file's digest (and, for files small enough,
 * the lines the model wrote), so the next edit needs no re-read; a move carries the evidence to the new path, a
 * removed file loses it.
 */
async function rememberWrite(
  ws: Workspace,
  state: ToolkitState,
  effect: WriteEffect,
  callId: string,
  files: CallFiles | undefined,
) {
  if (effect.op === 'move') state.files.move(effect.from, effect.to);
  else if (effect.op === 'drop') state.files.drop(effect.path);
  else {
    const written = files?.written(callId, effect.path);
    await rememberOwnContent(
      ws,
      state,
      effect.path,
      effect.sha256,
      callId,
      effect.lines,
      effect.newText ?? [],
      written,
    );
  }
}

/**
 * After the toolkit's own write: the digest of what it wrote, and as line evidence what the model itself wrote.
 * Lines the model never saw do not become evidence just because the toolkit rewrote the file around them.
 * `wroteBytes`, when the tool said what it wrote, stands in for reading the file back: its lines are evidence as a read taken right
 * after the write would have been.
 */
async function rememberOwnContent(
  ws: Workspace,
  state: ToolkitState,
  path: string,
  digest: string | undefined,
  callId: string,
  written: WrittenLines,
  newText: readonly string[],
  wroteBytes?: Buffer,
) {
  const own = await ownContent(ws, path, state.guardLimits, digest, wroteBytes);
  // The digest the tool reported is what it wrote; a different one now means someone else wrote since.
  const sha256 = digest ?? own?.sha256;
  if (sha256) state.files.record(path, sha256, callId, 'write');
  if (own?.text === undefined || own.sha256 !== sha256) return;
  const lines = linesOf(own.text);
  if (written === 'all') {
    state.files.recordWindow(path, 1, lines, callId);
    return;
  }
  // A tool that does not say where its new text went: the lines now holding each new text.
  const spans = written.length > 0 ? written : newTextSpans(own.text, newText);
  for (const span of spans) state.files.recordWindow(path, span.start, lines.slice(span.start - 1, span.end), callId);
}

/** Lines holding each of `texts` (empty ones skipped), located in the new text. */
function newTextSpans(text: string, texts: readonly string[]): LineSpan[] {
  const lf = text.replace(/\r\n/g, '\n');
  return texts.flatMap((next) => (next !== '' ? occurrenceSpans(lf, next.replace(/\r\n/g, '\n')) : []));
}
