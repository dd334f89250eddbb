import { type BranchView, branchProvider, defineTool, type Provider, type Tool } from '@bough/core';
import { CONTEXT_DESCRIPTION } from './guidance.js';
import { type ContextOptions, handleContext } from './handle-context.js';
import { ContextRequest, ContextResponse } from './schema.js';

/** Options of the context tool and provider (limits and an optional model override). */
export type ContextToolOptions = Omit<ContextOptions, 'signal' | 'callId'>;

/** Builds the `context` tool bound to one branch: every call curates that branch and no other. */
export function createContextTool(
  branch: BranchView,
  options: ContextToolOptions = {},
): Tool<ContextRequest, ContextResponse> {
  return defineTool({
    name: 'context',
    description: CONTEXT_DESCRIPTION,
    request: ContextRequest,
    response: ContextResponse,
    scope: 'branch',
    handler: (request, context) =>
      handleContext(branch, request, { ...options, signal: context.signal, callId: context.callId }),
  });
}

/**
 * The branch-scoped provider of the `context` tool; a clone of the branch gets a fresh tool bound to the clone
 * (and to the clone's model, unless a model is fixed in the options).
 */
export function contextProvider(options: ContextToolOptions = {}): Provider {
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
