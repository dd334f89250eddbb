import { anthropic } from '@ai-sdk/anthropic';
import { type DialectFailure, executeAnthropicBash, executeTextEditor } from '@bough/coding';
import { type DialectSource, dialectRegistry } from './internal/dialect-registry.js';
import { failuresAsErrors } from './internal/model-output.js';

export type { DialectSource, DialectToolkitOptions } from './internal/dialect-registry.js';

/** Options of {@link anthropicTools} besides the registry. */
export interface AnthropicToolsOptions {
  /** The text editor's `max_characters`: each `view` is cut to this many characters (unset: no cut). */
  readonly maxCharacters?: number;
  /** Per-call timeout in milliseconds for each bough call (0, negative or non-finite means the default). */
  readonly timeoutMs?: number;
}

/** The tools {@link anthropicTools} returns, typed by `@ai-sdk/anthropic`'s own factories. */
export type AnthropicToolSet = {
  /** The text editor tool (`text_editor_20250728`), under the name Anthropic gives it. */
  readonly str_replace_based_edit_tool: ReturnType<typeof anthropic.tools.textEditor_20250728>;
  /** The bash tool (`bash_20250124`). */
  readonly bash: ReturnType<typeof anthropic.tools.bash_20250124<string | DialectFailure>>;
};

/**
 * Anthropic's native tools with bough as their executor: the text editor (`str_replace_based_edit_tool`, version
 * `text_editor_20250728`) and `bash` (`bash_20250124`), built with `@ai-sdk/anthropic`'s provider tool factories.
 * The model sees the tools it was trained on, at no schema cost; every call runs through the registry's reader,
 * editor and bash tools, so the read-before-edit guard, the permission policy, the workspace gate and the OS sandbox
 * apply, and results read as Anthropic documents them. A failed call (no match, a missing file, a refused command)
 * is sent as an `error-text` output, which Anthropic's API receives as a `tool_result` with `is_error: true`, its
 * text the documented one; `execute` itself returns the typed failure. Pass the result as `tools` to `generateText` or
 * `streamText`.
 */
export function anthropicTools(source: DialectSource, options: AnthropicToolsOptions = {}): AnthropicToolSet {
  const registry = dialectRegistry(source, 'anthropic');
  const timeout = options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {};
  // A dialect failure's `error` is already the documented text.
  const toModelOutput = failuresAsErrors((failure) => failure.error);
  return {
    str_replace_based_edit_tool: anthropic.tools.textEditor_20250728({
      ...(options.maxCharacters !== undefined ? { maxCharacters: options.maxCharacters } : {}),
      toModelOutput,
      execute: (input, { toolCallId, abortSignal }) =>
        executeTextEditor(registry, input, {
          callId: toolCallId,
          ...(abortSignal ? { signal: abortSignal } : {}),
          ...(options.maxCharacters !== undefined ? { maxCharacters: options.maxCharacters } : {}),
          ...timeout,
        }),
    }),
    bash: anthropic.tools.bash_20250124({
      toModelOutput,
      execute: (input, { toolCallId, abortSignal }) =>
        executeAnthropicBash(registry, input, {
          callId: toolCallId,
          ...(abortSignal ? { signal: abortSignal } : {}),
          ...timeout,
        }),
    }),
  };
}
