import { describeZodError, parseOnce, type ToolContext } from '@bough/core';
import type { CheckpointStore } from './checkpoint-store.js';
import { failure } from './errors.js';
import { type CheckpointsInput, CheckpointsRequest, type CheckpointsResponse } from './schema.js';

/** Who a restore made through the tool is attributed to. */
export interface CheckpointsCallOptions {
  readonly store: CheckpointStore;
  readonly callId?: string;
  readonly branch?: string;
}

/** Lists, diffs or restores checkpoints; never throws for an expected failure. */
export async function handleCheckpoints(
  request: CheckpointsInput,
  options: CheckpointsCallOptions & Pick<ToolContext, 'parsedBy'>,
): Promise<CheckpointsResponse> {
  const parsed = parseOnce(CheckpointsRequest, request, options.parsedBy);
  if (!parsed.success) {
    return failure('invalid_request', `Invalid checkpoints request: ${describeZodError(parsed.error)}`);
  }
  const { action, limit, branch, from, to, paths, force } = parsed.data;
  const { store } = options;
  switch (action) {
    case 'list':
      return store.list({ ...(limit ? { limit } : {}), ...(branch ? { branch } : {}) });
    case 'diff':
      if (!from) return failure('invalid_request', 'diff needs `from` (a checkpoint id from list).');
      return store.diff({ from, ...(to ? { to } : {}), ...(paths ? { paths } : {}) });
    case 'restore':
      if (!to) {
        return failure(
          'invalid_request',
          'restore needs `to`: the checkpoint to bring back (to undo a call, its `before` from list).',
        );
      }
      return store.restore({
        to,
        ...(paths ? { paths } : {}),
        ...(force ? { force } : {}),
        ...(options.branch ? { branch: options.branch } : {}),
        ...(options.callId ? { callId: options.callId } : {}),
      });
  }
}
