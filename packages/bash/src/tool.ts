import { defineTool, type Tool } from '@bough/core';
import type { BashOptions } from './bash-options.js';
import { BASH_DESCRIPTION } from './description.js';
import { handleBash } from './handle-bash.js';
import { BashRequest, BashResponse } from './schema.js';

/**
 * Builds the frozen `bash` tool for one workspace; the handler gets the call's abort signal. Background jobs go to
 * `options.jobs`; use {@link createBashTools} to get the matching jobs tool.
 */
export function createBashTool(options: BashOptions): Tool<BashRequest, BashResponse> {
  return defineTool({
    name: 'bash',
    description: BASH_DESCRIPTION,
    request: BashRequest,
    response: BashResponse,
    scope: options.jobs ? 'branch' : 'stateless',
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    handler: (request, context) =>
      handleBash(request, {
        ...options,
        signal: context.signal,
        ...(context.progress ? { progress: context.progress } : {}),
      }),
  });
}
