import { executeTool, type Tool, type ToolCall, type ToolHooks, type ToolRegistry, toolJsonSchema } from '@bough/core';
import type { Tool as AiTool, ToolExecutionOptions } from 'ai';
import type { AiSdkFailure } from './errors.js';
import { passThroughSchema } from './internal/schema.js';
import { AI_SDK_LIMITS } from './limits.js';

/** Options shared by {@link toAiSdkTool} and {@link toAiSdkTools}. */
export interface AiSdkToolOptions {
  /**
   * Cancel a call after this many milliseconds (default `DEFAULT_AI_SDK_LIMITS.callTimeoutMs`; 0, negative or
   * non-finite means the default, as everywhere in bough).
   */
  readonly timeoutMs?: number;
  /** Extra hooks run before the tool's own (e.g. a permission policy). */
  readonly hooks?: readonly ToolHooks[];
  /** Sees every settled call (status, duration, error), e.g. for logging; its errors are ignored. */
  readonly onCall?: (call: ToolCall) => void;
}

/** What an adapted tool returns: the tool's own result, or a typed failure value (never a thrown error). */
export type AiSdkToolOutput<RES> = RES | AiSdkFailure;

type Runner = (name: string, input: unknown, execution: ToolExecutionOptions) => Promise<ToolCall>;

function adapt<REQ, RES>(
  tool: Tool<REQ, RES>,
  run: Runner,
  options: AiSdkToolOptions,
): AiTool<REQ, AiSdkToolOutput<RES>> {
  const adapted = {
    description: tool.description,
    inputSchema: passThroughSchema(toolJsonSchema(tool)),
    execute: async (input: REQ, execution: ToolExecutionOptions) => {
      const call = await run(tool.name, input, execution);
      try {
        options.onCall?.(call);
      } catch {
        // Observers must not change the result the model sees.
      }
      return call.output as AiSdkToolOutput<RES>;
    },
  };
  return adapted as unknown as AiTool<REQ, AiSdkToolOutput<RES>>;
}

/** The call timeout, resolved once per adaptation by the one timeout rule (a non-number throws naming the key). */
function resolved(options: AiSdkToolOptions): AiSdkToolOptions & { timeoutMs: number } {
  return { ...options, timeoutMs: AI_SDK_LIMITS.resolve({ callTimeoutMs: options.timeoutMs }).callTimeoutMs };
}

function executeOptions(execution: ToolExecutionOptions, options: AiSdkToolOptions & { timeoutMs: number }) {
  return {
    callId: execution.toolCallId,
    timeoutMs: options.timeoutMs,
    ...(execution.abortSignal ? { signal: execution.abortSignal } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  };
}

/**
 * Adapts one bough tool to the AI SDK `tool()` shape. The model sees the tool's JSON Schema; each call runs
 * through core's executor (validation, hooks, abort, timeout), and failures, including invalid input, come back as
 * `{ success: false, error, error_code }` values rather than thrown errors.
 */
export function toAiSdkTool<REQ, RES>(
  tool: Tool<REQ, RES>,
  options: AiSdkToolOptions = {},
): AiTool<REQ, AiSdkToolOutput<RES>> {
  const settled = resolved(options);
  return adapt(
    tool,
    (_name, input, execution) => executeTool(tool, input, executeOptions(execution, settled)),
    settled,
  );
}

function isRegistry(source: ToolRegistry | readonly Tool[]): source is ToolRegistry {
  return !Array.isArray(source);
}

/**
 * Adapts every tool of a registry (calls go through `registry.invoke`, so registry-level hooks apply) or of a list,
 * keyed by tool name, ready for `generateText({ tools })`.
 */
export function toAiSdkTools(
  source: ToolRegistry | readonly Tool[],
  options: AiSdkToolOptions = {},
): Record<string, AiTool<unknown, unknown>> {
  const tools: Record<string, AiTool<unknown, unknown>> = {};
  const settled = resolved(options);
  if (isRegistry(source)) {
    const registry = source;
    const run: Runner = (name, input, execution) => registry.invoke(name, input, executeOptions(execution, settled));
    for (const tool of registry.list()) tools[tool.name] = adapt(tool, run, settled) as AiTool<unknown, unknown>;
    return tools;
  }
  for (const tool of source) tools[tool.name] = toAiSdkTool(tool, settled) as AiTool<unknown, unknown>;
  return tools;
}
