import { errorMessage, MAX_TIMEOUT_MS } from '@bough/core';

/** How a coordinator callback ended. */
export type CallbackOutcome =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'threw'; readonly message: string }
  | { readonly kind: 'timed_out'; readonly message: string };

/**
 * Runs a coordinator callback without trusting it: a throw becomes a message, and a callback that does not settle
 * within `timeoutMs` (or before `signal` aborts) is abandoned. The callback itself cannot be stopped; its late
 * result is ignored.
 */
export async function runCallback<E>(
  callback: (event: E) => unknown,
  event: E,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<CallbackOutcome> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const limited = Number.isFinite(timeoutMs) && timeoutMs > 0;
  const gaveUp = new Promise<CallbackOutcome>((resolve) => {
    if (limited) {
      timer = setTimeout(
        () => resolve({ kind: 'timed_out', message: `the coordinator did not answer within ${timeoutMs} ms` }),
        Math.min(timeoutMs, MAX_TIMEOUT_MS),
      );
    }
    if (signal) {
      onAbort = () =>
        resolve({ kind: 'timed_out', message: 'the call was cancelled while waiting for the coordinator' });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  const running = (async (): Promise<CallbackOutcome> => {
    try {
      return { kind: 'value', value: await callback(event) };
    } catch (error) {
      return { kind: 'threw', message: errorMessage(error) };
    }
  })();
  try {
    return await Promise.race([running, gaveUp]);
  } finally {
    if (timer) clearTimeout(timer);
    if (signal && onAbort) signal.removeEventListener('abort', onAbort);
  }
}
