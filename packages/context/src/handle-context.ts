import { type BranchView, type ChatModel, describeZodError, failure } from '@bough/core';
import { ContextErrorCode } from './errors.js';
import { compact } from './internal/compact.js';
import { evict, evictActionResults, restore } from './internal/curate.js';
import { getMessages, status } from './internal/inspect.js';
import { type ContextLimits, resolveContextLimits } from './limits.js';
import { ContextRequest, type ContextResponse } from './schema.js';

/** What {@link handleContext} needs besides the branch and the request. */
export interface ContextOptions {
  /** Overrides of {@link DEFAULT_CONTEXT_LIMITS}. */
  readonly limits?: Partial<ContextLimits>;
  /** The model used by compact with auto=true; defaults to `branch.model`. */
  readonly model?: ChatModel;
  /** Cancels an auto summary in flight. */
  readonly signal?: AbortSignal;
  /** Id of the tool call running this request; its own action_request is never hidden. */
  readonly callId?: string;
}

/**
 * Runs one `context` request against a branch's active view. Pure with respect to module state: everything it
 * changes lives on the branch it is given, and expected failures come back as values.
 */
export async function handleContext(
  branch: BranchView,
  request: unknown,
  options: ContextOptions = {},
): Promise<ContextResponse> {
  const parsed = ContextRequest.safeParse(request);
  if (!parsed.success) {
    return failure(ContextErrorCode.invalidRequest, `Invalid context request: ${describeZodError(parsed.error)}`);
  }
  const req = parsed.data;
  if ((req.action === 'evict' || req.action === 'compact') && ((req.start ?? 0) < 0 || (req.end ?? 0) < 0)) {
    // Clamping a negative index is safe for reading and restoring; for hiding or collapsing it is a likely mistake.
    return failure(
      ContextErrorCode.invalidRequest,
      `Invalid context request: ${req.action} needs start and end of 0 or more; list the indices with action="get_messages".`,
    );
  }
  const limits = resolveContextLimits(options.limits);
  switch (req.action) {
    case 'status':
      return status(branch);
    case 'get_messages':
      return getMessages(branch, req, limits);
    case 'evict':
      return evict(branch, req.start, req.end, options.callId);
    case 'evict_action_results':
      return evictActionResults(branch, req.keep_last ?? limits.defaultKeepLast);
    case 'restore':
      return restore(branch, req.start, req.end);
    case 'compact':
      return compact(branch, req, {
        limits,
        model: options.model ?? branch.model,
        signal: options.signal,
        callId: options.callId,
      });
  }
}
