import { type BranchView, branchProvider, defineTool, type Provider, type Tool, touchesNothing } from '@bough/core';
import { contextDescription } from './guidance.js';
import { type ContextOptions, handleContext } from './handle-context.js';
import { CONTEXT_LIMITS } from './limits.js';
import { contextSummary } from './render.js';
import { ContextRequest, ContextResponse } from './schema.js';

/** Options of the context tool and provider (limits and an optional model override). */
export type ContextToolOptions = Omit<ContextOptions, 'signal' | 'callId'>;

/**
 * Builds the `context` tool bound to one branch: every call curates that branch and no other. Limits are resolved
 * here, once (a bad override throws naming the key), and the description states them.
 */
export function createContextTool(
  branch: BranchView,
  options: ContextToolOptions = {},
): Tool<ContextRequest, ContextResponse> {
  const limits = CONTEXT_LIMITS.resolve(options.limits);
  return defineTool({
    name: 'context',
    description: contextDescription(limits),
    request: ContextRequest,
    response: ContextResponse,
    scope: 'branch',
    touches: touchesNothing,
    summarize: contextSummary,
    handler: (request, context) =>
      handleContext(branch, request, {
        ...options,
        limits,
        signal: context.signal,
        callId: context.callId,
        parsedBy: context.parsedBy,
      }),
  });
}

/**
 * The branch-scoped provider of the `context` tool; a clone of the branch gets a fresh tool bound to the clone
 * (and to the clone's model, unless a model is fixed in the options).
 */
export function contextProvider(options: ContextToolOptions = {}): Provider {
  // Validated when the provider is made, so a bad override fails at set-up rather than at the first build.
  CONTEXT_LIMITS.resolve(options.limits);
  return branchProvider(
    'context',
    (context) => [
      createContextTool(context.branch, {
        ...options,
        ...((options.model ?? context.model) ? { model: options.model ?? context.model } : {}),
      }),
    ],
    { rebind: 'rebuild' },
  );
}
