import { isToolFailure, type ToolFailure } from '@bough/core';
import type { AiSdkJsonValue } from '../language-model.js';

/**
 * What a tool's `toModelOutput` returns: the three output kinds every supported ai major (5, 6, 7) shares. A failure
 * is `error-text`, which each provider sends as a failed tool result (Anthropic's API as `is_error: true`).
 */
export type AiSdkToolModelOutput =
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'json'; readonly value: AiSdkJsonValue }
  | { readonly type: 'error-text'; readonly value: string };

/**
 * What `toModelOutput` is called with: ai 5 passes the tool's output itself, ai 6 and 7 pass
 * `{ toolCallId, input, output }` (checked against each major's installed types and `createToolModelOutput`).
 */
export type AiSdkModelOutputArgument<OUTPUT> = OUTPUT | { toolCallId: string; input: unknown; output: OUTPUT };

/**
 * The output out of either major's argument. ai 6/7's wrapper is told apart by its `toolCallId` and `output` keys;
 * a bough output never has them (a bough tool's output always carries `success`, a dialect's is text or a failure).
 */
function outputOf(argument: unknown): unknown {
  if (typeof argument !== 'object' || argument === null || 'success' in argument) return argument;
  return 'toolCallId' in argument && 'output' in argument ? (argument as { output: unknown }).output : argument;
}

/**
 * A `toModelOutput` that works with every ai major: a failure becomes `error-text` worded by `failureText`; any
 * other output is what the SDK sends without the hook (a string as `text`, anything else as `json`).
 */
export function failuresAsErrors(
  failureText: (failure: ToolFailure) => string,
): (argument: unknown) => AiSdkToolModelOutput {
  return (argument) => {
    const output = outputOf(argument);
    if (isToolFailure(output)) return { type: 'error-text', value: failureText(output) };
    if (typeof output === 'string') return { type: 'text', value: output };
    return { type: 'json', value: (output ?? null) as AiSdkJsonValue };
  };
}
