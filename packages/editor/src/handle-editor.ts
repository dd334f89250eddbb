import { describeZodError, errorMessage, type OnlyKnownFields, parseOnce, type ToolContext } from '@bough/core';
import { type LinkRule, type ProtectedNamePolicy, Workspace } from '@bough/workspace';
import { editAction } from './edit-action.js';
import { failure } from './errors.js';
import type { EditorFileExchange } from './file-exchange.js';
import { shareOf } from './internal/file-share.js';
import { type EditorLimits, resolveEditorLimits } from './limits.js';
import { mkdirAction, moveAction } from './move-action.js';
import { multiEditAction } from './multi-edit-action.js';
import { patchAction } from './patch-action.js';
import {
  type EditorFieldsFor,
  type EditorInput,
  EditorRequest,
  type EditorResponse,
  type EditorResponseFor,
} from './schema.js';
import { writeAction } from './write-action.js';

/** How an editor is set up: the workspace root it may touch, limits and the protected-name policy. */
export interface EditorOptions {
  /** Directory every path is confined to. */
  workspaceRoot: string;
  /** Overrides for {@link DEFAULT_EDITOR_LIMITS}. */
  limits?: Partial<EditorLimits>;
  /** Credential names refused for reads and writes (default: the workspace package's list). */
  protectedNames?: ProtectedNamePolicy;
  /**
   * Where a symbolic link on a requested path may lead (the workspace's `linkRule`): a permission policy's path rules
   * applied to the real path the gate reached. The coding toolkit sets it from its policy.
   */
  linkRule?: LinkRule;
  /** An already opened workspace to reuse (its root and its `durable` setting win over the options here). */
  workspace?: Workspace;
  /**
   * fsync every new content before it is put in place (the workspace's `durable` option): slower writes that survive
   * a power cut. Off by default, like the reference MCP filesystem server and most editors.
   */
  durable?: boolean;
  /**
   * Shares files with a caller that reads them around each call (see {@link EditorFileExchange}); calls are told
   * apart by the `callId` handed to the handler.
   */
  exchange?: EditorFileExchange;
  /**
   * Try the loose-matching tiers when an exact match fails (default true); a request's `exact: true` turns them off
   * for that call, `exact: false` turns them on.
   */
  fuzzy?: boolean;
}

/** Opens the workspace for an editor, sized so the largest editable file can also be written back. */
export async function openEditorWorkspace(options: EditorOptions): Promise<Workspace> {
  if (options.workspace) return options.workspace;
  const limits = resolveEditorLimits(options.limits);
  // Synchronously: resolving the root is two metadata calls answered from memory, where two thread-pool round trips
  // cost milliseconds on a busy machine (the replay measured 5 ms of a 10 ms patch here).
  return Workspace.openSync(options.workspaceRoot, {
    ...(options.protectedNames ? { protectedNames: options.protectedNames } : {}),
    ...(options.durable === true ? { durable: true } : {}),
    ...(options.linkRule ? { linkRule: options.linkRule } : {}),
    limits: { maxWriteBytes: Math.max(limits.maxFileBytes, limits.maxWriteBytes) + 1024 * 1024 },
  });
}

/**
 * The pure editor handler: validates, then writes or edits inside the workspace; expected failures are values. The
 * request is typed as the schema's input, and the response type follows its `action` (narrow it with `success`); the
 * request is still validated at run time, since it may come from a model, unless `options.parsedBy` (the tool's
 * `context.parsedBy`) says the executor already parsed it with the editor's schema.
 */
export async function handleEditor<R extends EditorInput>(
  request: R & OnlyKnownFields<R, EditorInput> & EditorFieldsFor<R['action']>,
  options: EditorOptions & { signal?: AbortSignal; callId?: string; parsedBy?: ToolContext['parsedBy'] },
): Promise<EditorResponseFor<R['action']>> {
  return (await editorResponse(request, options)) as EditorResponseFor<R['action']>;
}

async function editorResponse(
  request: unknown,
  options: EditorOptions & { signal?: AbortSignal; callId?: string; parsedBy?: ToolContext['parsedBy'] },
): Promise<EditorResponse> {
  const parsed = parseOnce(EditorRequest, request, options.parsedBy);
  if (!parsed.success) {
    return failure('invalid_request', `Invalid editor request: ${describeZodError(parsed.error)}`);
  }
  if (options.signal?.aborted) return failure('aborted', 'The call was cancelled before it started.');
  let ws: Workspace;
  try {
    ws = await openEditorWorkspace(options);
  } catch (error) {
    return failure('workspace_unavailable', `The editor's workspace root is unusable: ${errorMessage(error)}`);
  }
  const limits = resolveEditorLimits(options.limits);
  const req = parsed.data;
  const dryRun = req.dry_run === true;
  const fuzzy = req.exact === undefined ? options.fuzzy !== false : !req.exact;
  const share = shareOf(options.exchange, options.callId);
  if (req.action === 'patch') return patchAction(ws, { patch: req.patch, fuzzy, dryRun }, limits, options.signal);
  const filePath = req.file_path;
  if (filePath === undefined) {
    return failure('invalid_request', `action '${req.action}' needs 'file_path'.`);
  }
  switch (req.action) {
    case 'write':
      return writeAction(ws, filePath, req.content, limits, options.signal, dryRun, share);
    case 'multi_edit':
      if (req.edits === undefined) {
        return failure('invalid_request', "action 'multi_edit' needs 'edits': a list of { old_string, new_string }.");
      }
      return multiEditAction(ws, { filePath, edits: req.edits, fuzzy, dryRun }, limits, options.signal, share);
    case 'move':
      return moveAction(ws, filePath, req.destination, req.overwrite === true, dryRun);
    case 'mkdir':
      return mkdirAction(ws, filePath, dryRun);
    default:
      return editAction(
        ws,
        {
          filePath,
          oldString: req.old_string,
          newString: req.new_string,
          replaceAll: req.replace_all,
          fuzzy,
          dryRun,
        },
        limits,
        options.signal,
        share,
      );
  }
}
