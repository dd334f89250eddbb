import { type BranchView, type ChatModel, describeZodError, parseOnce, type ToolContext } from '@bough/core';
import { fail } from './errors.js';
import { compact } from './internal/compact.js';
import { evict, evictActionResults, restore } from './internal/curate.js';
import { getMessages, status } from './internal/inspect.js';
import { CONTEXT_LIMITS, type ContextLimits } from './limits.js';
import { type ContextInput, ContextRequest, type ContextResponse, type ContextResponseFor } from './schema.js';

/** What {@link handleContext} needs besides the branch and the request. */
export interface ContextOptions {
  /**
   * Overrides of {@link DEFAULT_CONTEXT_LIMITS}; a bad one throws a `ConfigurationError` naming the key. Limits the
   * tool factory resolved are passed through as they are.
   */
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
export async function handleContext<R extends ContextInput>(
  branch: BranchView,
  request: R,
  options: ContextOptions & Pick<ToolContext, 'parsedBy'> = {},
): Promise<ContextResponseFor<R['action']>> {
  return (await contextResponse(branch, request, options)) as ContextResponseFor<R['action']>;
}

async function contextResponse(
  branch: BranchView,
  request: unknown,
  options: ContextOptions & Pick<ToolContext, 'parsedBy'>,
): Promise<ContextResponse> {
  const limits = CONTEXT_LIMITS.resolve(options.limits);
  const parsed = parseOnce(ContextRequest, request, options.parsedBy);
  if (!parsed.success) {
    return fail('invalid_request', `Invalid context request: ${describeZodError(parsed.error)}`);
  }
  const req = parsed.data;
  if ((req.action === 'evict' || req.action === 'compact') && ((req.start ?? 0) < 0 || (req.end ?? 0) < 0)) {
    // Clamping a negative index is safe for reading and restoring; for hiding or collapsing it is a likely mistake.
    return fail(
      'invalid_request',
      `Invalid context request: ${req.action} needs start and end of 0 or more; list the indices with action="get_messages".`,
    );
  }
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
