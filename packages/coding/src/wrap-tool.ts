import { defineTool, type ProviderContext, type Tool, type ToolHooks, withHooks } from '@branchkit/core';
import { checkBeforeEdit, GUARD_CODES } from './edit-guard.js';
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
  options: Record<string, unknown>,
  hooks: ToolHooks,
): Tool {
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
        const ws = await state.workspace(root).catch(() => undefined);
        const refusal = ws
          ? await checkBeforeEdit(ws, state.files, (request as { file_path?: unknown }).file_path)
          : {
              success: false as const,
              error: 'The workspace could not be opened to verify the file before editing; nothing was changed.',
              error_code: GUARD_CODES.checkFailed,
            };
        if (refusal) return refusal;
      }
      const result = await toolFor(root).handler(request, call);
      if (source.role === 'read' || source.role === 'write') remember(state, result, call.callId, source.role);
      return result;
    },
  });
}

function remember(state: ToolkitState, result: unknown, callId: string, role: 'read' | 'write'): void {
  if (typeof result !== 'object' || result === null) return;
  const { success, path, sha256 } = result as { success?: unknown; path?: unknown; sha256?: unknown };
  if (success !== true || typeof path !== 'string' || typeof sha256 !== 'string') return;
  state.files.record(path, sha256, callId, role);
}
