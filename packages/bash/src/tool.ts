import { defineTool, type Tool } from '@bough/core';
import { checkSandboxSettings } from '@bough/process';
import type { BashOptions } from './bash-options.js';
import { bashDescription } from './description.js';
import { handleBash } from './handle-bash.js';
import { resolveBashLimits } from './limits.js';
import { commandModelText, commandSummary } from './render.js';
import { sandboxSettings } from './sandbox-settings.js';
import { BashRequest, BashResponse } from './schema.js';
import { bashTouches } from './touches.js';

/**
 * Builds the frozen `bash` tool for one workspace; the handler gets the call's abort signal. Background jobs go to
 * `options.jobs`; use {@link createBashTools} to get the matching jobs tool.
 */
export function createBashTool(options: BashOptions): Tool<BashRequest, BashResponse> {
  // Resolved once per build: a bad override throws a ConfigurationError naming the key.
  const limits = resolveBashLimits(options.limits);
  // Deny rules the OS sandbox cannot enforce are refused here, when the tool is configured, never dropped; the
  // compiled rules then serve every command of the tool.
  const checkedSandbox = checkSandboxSettings(sandboxSettings(options, limits));
  return defineTool({
    name: 'bash',
    description: bashDescription(limits),
    request: BashRequest,
    response: BashResponse,
    scope: options.jobs ? 'branch' : 'stateless',
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    touches: bashTouches,
    toModelText: commandModelText,
    summarize: commandSummary,
    handler: (request, context) =>
      handleBash(request, {
        ...options,
        limits,
        checkedSandbox,
        signal: context.signal,
        parsedBy: context.parsedBy,
        ...(context.progress ? { progress: context.progress } : {}),
      }),
  });
}
