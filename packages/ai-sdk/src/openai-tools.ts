import { openai } from '@ai-sdk/openai';
import { executeApplyPatch, executeOpenAiShell } from '@bough/coding';
import { type DialectSource, dialectRegistry } from './internal/dialect-registry.js';

export type { DialectSource, DialectToolkitOptions } from './internal/dialect-registry.js';

/** Options of {@link openaiTools} besides the registry. */
export interface OpenAiToolsOptions {
  /** Per-call timeout in milliseconds for each bough call (0, negative or non-finite means the default). */
  readonly timeoutMs?: number;
}

/** The tools {@link openaiTools} returns, typed by `@ai-sdk/openai`'s own factories. */
export type OpenAiToolSet = {
  /** The `apply_patch` tool. */
  readonly apply_patch: ReturnType<typeof openai.tools.applyPatch>;
  /** The `shell` tool. */
  readonly shell: ReturnType<typeof openai.tools.shell>;
};

/**
 * OpenAI's native tools with bough as their executor: `apply_patch` and `shell`, built with `@ai-sdk/openai`'s
 * provider tool factories (Responses API models). Every patch is applied by the editor's `patch` action and every
 * command run by bough's `bash` tool through the registry, so the read-before-edit guard, the permission policy,
 * the workspace gate and the OS sandbox apply; answers take the shapes the tools define. Pass the result as `tools`
 * to `generateText` or `streamText`.
 */
export function openaiTools(source: DialectSource, options: OpenAiToolsOptions = {}): OpenAiToolSet {
  const registry = dialectRegistry(source, 'openai');
  const timeout = options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {};
  return {
    apply_patch: openai.tools.applyPatch({
      execute: (input, { toolCallId, abortSignal }) =>
        executeApplyPatch(registry, input, {
          callId: toolCallId,
          ...(abortSignal ? { signal: abortSignal } : {}),
          ...timeout,
        }),
    }),
    shell: openai.tools.shell({
      execute: (input, { toolCallId, abortSignal }) =>
        executeOpenAiShell(registry, input, {
          callId: toolCallId,
          ...(abortSignal ? { signal: abortSignal } : {}),
          ...timeout,
        }),
    }),
  };
}
