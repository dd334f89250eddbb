import {
  executeTool,
  type Tool,
  type ToolCall,
  type ToolHooks,
  type ToolRegistry,
  toolJsonSchema,
  toolOutputText,
} from '@bough/core';
import type { AiSdkFailure } from './errors.js';
import { type AiSdkInputSchema, passThroughSchema } from './input-schema.js';
import { type AiSdkModelOutputArgument, type AiSdkToolModelOutput, failuresAsErrors } from './internal/model-output.js';
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

/**
 * The part of the AI SDK's per-call options an adapted tool reads. The SDK's own `ToolExecutionOptions` has more
 * fields and is assignable to this.
 */
export interface AiSdkToolCallOptions {
  /** The id the model gave the call; it becomes the bough call id. */
  readonly toolCallId: string;
  /** Fires when the generation is stopped; it reaches the handler. */
  readonly abortSignal?: AbortSignal;
}

/**
 * A bough tool in the AI SDK's tool shape, declared here rather than imported from `ai` so that this package's
 * types need no `ai` installed. It is assignable to `Tool` from `ai` 6 and 7, so it goes straight into
 * `generateText({ tools })`, `streamText` and agents, with its input and output types (ai 5 runs it too, but its
 * `ToolSet` type cannot name this input schema: there it goes in as a `ToolSet`).
 */
export interface AiSdkTool<REQ = unknown, RES = unknown> {
  /** The tool's description, shown to the model. */
  readonly description: string;
  /** The tool's JSON Schema for the model; it accepts any input, because bough's executor validates. */
  readonly inputSchema: AiSdkInputSchema<REQ>;
  /** Runs one call through core's executor; failures are returned as values, never thrown. */
  readonly execute: (input: REQ, options: AiSdkToolCallOptions) => Promise<AiSdkToolOutput<RES>>;
  /**
   * What the model is sent for a result: a failure as `error-text` (the text MCP shows, so providers mark the result
   * failed), anything else as the SDK sends it by default. Takes ai 5's argument (the output) and ai 6/7's
   * (`{ toolCallId, input, output }`) alike.
   */
  readonly toModelOutput: (argument: AiSdkModelOutputArgument<AiSdkToolOutput<RES>>) => AiSdkToolModelOutput;
}

type Runner = (name: string, input: unknown, execution: AiSdkToolCallOptions) => Promise<ToolCall>;

function adapt<REQ, RES>(tool: Tool<REQ, RES>, run: Runner, options: AiSdkToolOptions): AiSdkTool<REQ, RES> {
  return {
    description: tool.description,
    inputSchema: passThroughSchema<REQ>(toolJsonSchema(tool)),
    toModelOutput: failuresAsErrors((failure) => toolOutputText(tool, failure)),
    execute: async (input: REQ, execution: AiSdkToolCallOptions) => {
      const call = await run(tool.name, input, execution);
      try {
        options.onCall?.(call);
      } catch {
        // Observers must not change the result the model sees.
      }
      return call.output as AiSdkToolOutput<RES>;
    },
  };
}

/** The call timeout, resolved once per adaptation by the one timeout rule (a non-number throws naming the key). */
function resolved(options: AiSdkToolOptions): AiSdkToolOptions & { timeoutMs: number } {
  return { ...options, timeoutMs: AI_SDK_LIMITS.resolve({ callTimeoutMs: options.timeoutMs }).callTimeoutMs };
}

function executeOptions(execution: AiSdkToolCallOptions, options: AiSdkToolOptions & { timeoutMs: number }) {
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
export function toAiSdkTool<REQ, RES>(tool: Tool<REQ, RES>, options: AiSdkToolOptions = {}): AiSdkTool<REQ, RES> {
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
): Record<string, AiSdkTool> {
  const tools: Record<string, AiSdkTool> = {};
  const settled = resolved(options);
  if (isRegistry(source)) {
    const registry = source;
    const run: Runner = (name, input, execution) => registry.invoke(name, input, executeOptions(execution, settled));
    for (const tool of registry.list()) tools[tool.name] = adapt(tool, run, settled) as AiSdkTool;
    return tools;
  }
  for (const tool of source) tools[tool.name] = toAiSdkTool(tool, settled) as AiSdkTool;
  return tools;
}
