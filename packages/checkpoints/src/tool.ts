import { defineTool, type Provider, statelessProvider, type Tool, type Touches } from '@bough/core';
import { type CheckpointStore, type CheckpointStoreOptions, createCheckpointStore } from './checkpoint-store.js';
import { handleCheckpoints } from './handle-checkpoints.js';
import { checkpointsModelText } from './render.js';
import { CheckpointsRequest, CheckpointsResponse } from './schema.js';

/** The tool's description for a model: when to use it and how to recover. */
export const CHECKPOINTS_DESCRIPTION =
  'Undo changes to workspace files made by any earlier tool call, commands included. ' +
  'A checkpoint is taken before and after every call that changes files. ' +
  '`list` shows the newest checkpoints (call, tool, time, files changed); `diff` with `from` shows what one changed; ' +
  '`restore` with `to` brings a checkpoint back — to undo a call, restore to its `before`, optionally only some `paths`. ' +
  'A restore is itself a checkpoint, so it can be undone the same way. It refuses (conflict) to overwrite changes ' +
  'nobody recorded since the newest checkpoint; look at them, then restore fewer paths or pass force: true. ' +
  'Ignored, protected, linked and very large files are never stored or restored.';

/** Builds the `checkpoints` tool over a store (or the options to open one). */
export function createCheckpointsTool(
  options: { readonly store: CheckpointStore } | CheckpointStoreOptions,
): Tool<CheckpointsRequest, CheckpointsResponse> {
  const store = 'store' in options ? options.store : createCheckpointStore(options);
  return defineTool({
    name: 'checkpoints',
    touches: checkpointsTouches,
    toModelText: checkpointsModelText,
    description: CHECKPOINTS_DESCRIPTION,
    request: CheckpointsRequest,
    response: CheckpointsResponse,
    scope: 'stateless',
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    handler: (request, context) =>
      handleCheckpoints(request, {
        store,
        callId: context.callId,
        parsedBy: context.parsedBy,
        ...(context.branch ? { branch: context.branch.name ?? context.branch.id } : {}),
      }),
  });
}

/**
 * What a checkpoints request touches: `restore` writes, creates or deletes the named paths (without `paths`, anything
 * in the workspace); `diff` reads the named paths (without `paths`, anything); `list` shows names only and touches none.
 */
function checkpointsTouches(request: CheckpointsRequest): Touches {
  if (request.action === 'list') return {};
  const paths = request.paths ?? [];
  if (request.action === 'diff') return paths.length > 0 ? { read: [...paths] } : { workspace: true };
  return paths.length > 0 ? { write: [...paths], create: [...paths], delete: [...paths] } : { workspace: true };
}

/** A provider handing out the `checkpoints` tool of one workspace; every branch (and clone) shares its history. */
export function checkpointsProvider(options: { readonly store: CheckpointStore } | CheckpointStoreOptions): Provider {
  return statelessProvider('checkpoints', () => [createCheckpointsTool(options)]);
}
