import { defineTool, type Tool, type ToolFailure, type ToolRegistry } from '@bough/core';
import type { z } from 'zod';
import { callRegistry, type DialectCallOptions } from './dialect-call.js';

/**
 * A dialect tool: a tool with another harness's name and parameters whose handler calls the registry's own tools
 * (reader, editor, bash, search), so nothing is implemented twice and every guard and policy applies.
 */
export function dialectTool<REQ>(
  name: string,
  description: string,
  request: z.ZodType<REQ>,
  run: (request: REQ, options: DialectCallOptions) => Promise<unknown>,
  rendersLike?: Tool,
): Tool<REQ, unknown> {
  return defineTool({
    name,
    description,
    request,
    scope: 'stateless',
    // A dialect tool that hands back a registry tool's answer unchanged shows it the way that tool does; any other
    // answers in its provider's wording, failures included (their `error` is that wording: see DialectFailure).
    ...(rendersLike?.toModelText ? { toModelText: rendersLike.toModelText } : {}),
    ...(rendersLike?.summarize ? { summarize: rendersLike.summarize } : {}),
    ...(rendersLike ? {} : { failureText: (failure: ToolFailure) => failure.error }),
    handler: (parsed, context) => run(parsed, { callId: context.callId, signal: context.signal }),
  });
}

/** Calls one registry tool and hands back its own answer (success or typed failure) unchanged. */
export async function forward(
  registry: ToolRegistry,
  name: string,
  args: Record<string, unknown>,
  options: DialectCallOptions,
): Promise<unknown> {
  const result = await callRegistry(registry, name, args, options);
  return result.ok ? result.value : result.failure;
}
