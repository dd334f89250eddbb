import { isToolFailure, type ToolFailure, type ToolRegistry } from '@bough/core';

/** What every dialect executor passes on to the registry call it makes (the id, the abort signal, the timeout). */
export interface DialectCallOptions {
  /** The id the model gave the call; each registry call made for it derives its own id from this one. */
  readonly callId?: string;
  /** Fires when the caller gives up; it reaches the handler. */
  readonly signal?: AbortSignal;
  /** Per-call timeout in milliseconds (the registry's rule: 0, negative or non-finite means the default). */
  readonly timeoutMs?: number;
}

/** The result of one registry call: the tool's success value, or its typed failure. */
export type DialectResult =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | {
      readonly ok: false;
      readonly failure: ToolFailure;
    };

/**
 * Runs one call of a registered tool (reader, editor, bash …) through `registry.invoke`, so the tool's own hooks —
 * the read-before-edit guard, the permission policy, the OS sandbox — apply exactly as for a direct call.
 */
export async function callRegistry(
  registry: ToolRegistry,
  name: string,
  args: Record<string, unknown>,
  options: DialectCallOptions,
  step = '',
): Promise<DialectResult> {
  const call = await registry.invoke(name, args, {
    ...(options.callId ? { callId: step ? `${options.callId}:${step}` : options.callId } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const output = call.output;
  if (isToolFailure(output)) return { ok: false, failure: output };
  if (typeof output !== 'object' || output === null) {
    return { ok: false, failure: { success: false, error: `${name} returned nothing.`, error_code: 'handler_error' } };
  }
  return { ok: true, value: output as Record<string, unknown> };
}
