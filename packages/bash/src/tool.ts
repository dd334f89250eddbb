import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import { BASH_DESCRIPTION } from './description.js';
import { type BashOptions, handleBash } from './handle-bash.js';
import { BashRequest, BashResponse } from './schema.js';

/** Builds the frozen `bash` tool for one workspace; the handler gets the call's abort signal. */
export function createBashTool(options: BashOptions): Tool<BashRequest, BashResponse> {
  return defineTool({
    name: 'bash',
    description: BASH_DESCRIPTION,
    request: BashRequest,
    response: BashResponse,
    scope: 'stateless',
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    handler: (request, context) =>
      handleBash(request, {
        ...options,
        signal: context.signal,
        ...(context.progress ? { progress: context.progress } : {}),
      }),
  });
}

/** A stateless provider handing out the `bash` tool, shared unchanged by cloned branches. */
export function bashProvider(options: BashOptions): Provider {
  return statelessProvider('bash', () => [createBashTool(options)]);
}
