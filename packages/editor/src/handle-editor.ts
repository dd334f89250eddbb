import { describeZodError, errorMessage, failure } from '@bough/core';
import { type ProtectedNamePolicy, Workspace } from '@bough/workspace';
import { editAction } from './edit-action.js';
import { type EditorLimits, resolveEditorLimits } from './limits.js';
import { EditorRequest, type EditorResponse } from './schema.js';
import { writeAction } from './write-action.js';

/** How an editor is set up: the workspace root it may touch, limits and the protected-name policy. */
export interface EditorOptions {
  /** Directory every path is confined to. */
  workspaceRoot: string;
  /** Overrides for {@link DEFAULT_EDITOR_LIMITS}. */
  limits?: Partial<EditorLimits>;
  /** Credential names refused for reads and writes (default: the workspace package's list). */
  protectedNames?: ProtectedNamePolicy;
  /** An already opened workspace to reuse (its root wins over `workspaceRoot`). */
  workspace?: Workspace;
}

/** Opens the workspace for an editor, sized so the largest editable file can also be written back. */
export async function openEditorWorkspace(options: EditorOptions): Promise<Workspace> {
  if (options.workspace) return options.workspace;
  const limits = resolveEditorLimits(options.limits);
  return Workspace.open(options.workspaceRoot, {
    ...(options.protectedNames ? { protectedNames: options.protectedNames } : {}),
    limits: { maxWriteBytes: Math.max(limits.maxFileBytes, limits.maxWriteBytes) + 1024 * 1024 },
  });
}

/** The pure editor handler: validates, then writes or edits inside the workspace; expected failures are values. */
export async function handleEditor(
  request: unknown,
  options: EditorOptions & { signal?: AbortSignal },
): Promise<EditorResponse> {
  const parsed = EditorRequest.safeParse(request);
  if (!parsed.success) {
    return failure('invalid_request', `Invalid editor request: ${describeZodError(parsed.error)}`);
  }
  if (options.signal?.aborted) return failure('aborted', 'The call was cancelled before it started.');
  let ws: Workspace;
  try {
    ws = await openEditorWorkspace(options);
  } catch (error) {
    return failure('invalid_workspace', `The editor's workspace root is unusable: ${errorMessage(error)}`);
  }
  const limits = resolveEditorLimits(options.limits);
  const req = parsed.data;
  if (req.action === 'write') return writeAction(ws, req.file_path, req.content, limits, options.signal);
  return editAction(
    ws,
    { filePath: req.file_path, oldString: req.old_string, newString: req.new_string, replaceAll: req.replace_all },
    limits,
    options.signal,
  );
}
