import {
  type CheckpointStore,
  type CheckpointStoreOptions,
  createCheckpointStore,
  createCheckpointsTool,
} from '@bough/checkpoints';
import { defineTool, type ProviderContext, type Tool } from '@bough/core';
import type { ProtectedNamePolicy } from '@bough/workspace';

/** The toolkit's `checkpoints` option: `true` for the default store, or where and how to keep them. */
export type CheckpointsSetting =
  | boolean
  | Pick<CheckpointStoreOptions, 'storeDir' | 'limits' | 'respectGitignore' | 'env'>;

/**
 * The toolkit tools whose calls can change workspace files: the editor (writes, edits, patches), bash (any command;
 * a background start too), jobs (what a background job wrote shows up when the model looks at it), the git-worktree
 * sandbox (its merge) and the subagent (its own tools). The read-only tools are left alone.
 */
export const MUTATING_TOOLS: ReadonlySet<string> = new Set(['editor', 'bash', 'jobs', 'sandbox', 'subagent']);

/**
 * Takes a checkpoint before and after every call of a mutating tool, attributed to the branch, the call id and the
 * request, and adds the `checkpoints` tool so the model can list, diff and undo. The checkpoint runs inside the
 * handler, so a call refused by the permission policy costs nothing; a failing snapshot never fails the call.
 * Unset (the default) returns the tools unchanged.
 */
export function withCheckpoints(
  tools: Tool[],
  setting: CheckpointsSetting | undefined,
  context: ProviderContext,
  root: string,
  protectedNames: ProtectedNamePolicy | undefined,
): Tool[] {
  if (setting === undefined || setting === false) return tools;
  const store = createCheckpointStore({
    ...(typeof setting === 'object' ? setting : {}),
    root,
    ...(protectedNames ? { protectedNames } : {}),
  });
  const branch = context.branch.name ?? context.branch.id;
  return [
    ...tools.map((tool) => (MUTATING_TOOLS.has(tool.name) ? recorded(tool, store, branch) : tool)),
    createCheckpointsTool({ store }),
  ];
}

function recorded(tool: Tool, store: CheckpointStore, branch: string): Tool {
  return defineTool({
    name: tool.name,
    description: tool.description,
    request: tool.request,
    ...(tool.response ? { response: tool.response } : {}),
    scope: tool.scope,
    ...(tool.hooks ? { hooks: tool.hooks } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.jsonSchema ? { jsonSchema: tool.jsonSchema } : {}),
    handler: (request, call) =>
      store.record({ branch, callId: call.callId, tool: tool.name, request }, () => tool.handler(request, call)),
  });
}
