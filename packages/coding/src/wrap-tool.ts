import { isAbsolute } from 'node:path';
import { defineTool, type ProviderContext, type Tool, type ToolHooks, withHooks } from '@bough/core';
import type { WorkspaceOptions } from '@bough/workspace';
import { checkBeforeEdit, GUARD_CODES, hashFile } from './edit-guard.js';
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
      if (source.role === 'write') {
        const ws = await state.workspace(root, gateOptions).catch(() => undefined);
        const refusal = ws
          ? await checkBeforeEdit(ws, state.files, (request as { file_path?: unknown }).file_path, state.guardMaxBytes)
          : {
              success: false as const,
              error: 'The workspace could not be opened to verify the file before editing; nothing was changed.',
              error_code: GUARD_CODES.checkFailed,
            };
        if (refusal) return refusal;
      }
      const result = await toolFor(root).handler(request, call);
      if (source.role === 'read' || source.role === 'write')
        await remember(state, root, result, call.callId, source.role, gateOptions);
      return result;
    },
  });
}

/**
 * Records what a successful read or write showed. Only file content counts: converted documents and remote pages
 * are not evidence of the bytes on disk. A read of a file too large for the reader to hash is hashed here (the
 * content could change between the read and this hash; that window is documented).
 */
async function remember(
  state: ToolkitState,
  root: string,
  result: unknown,
  callId: string,
  role: 'read' | 'write',
  gateOptions: WorkspaceOptions | undefined,
) {
  if (typeof result !== 'object' || result === null) return;
  const { success, path, sha256, source } = result as {
    success?: unknown;
    path?: unknown;
    sha256?: unknown;
    source?: unknown;
  };
  if (success !== true || typeof path !== 'string' || !isAbsolute(path)) return;
  if (source !== undefined && source !== 'file') return;
  if (typeof sha256 === 'string') {
    state.files.record(path, sha256, callId, role);
    return;
  }
  if (role !== 'read' || (result as { type?: unknown }).type !== 'text') return;
  const ws = await state.workspace(root, gateOptions).catch(() => undefined);
  const hash = ws ? await hashFile(ws, path, state.guardMaxBytes) : undefined;
  if (typeof hash === 'string') state.files.record(path, hash, callId, role);
}
