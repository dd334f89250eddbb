import { type LspFailure, lspFailure } from '../errors.js';

/**
 * Waits for `pending` at most `ms` and only while `signal` is not aborted. The outcome is a value or a typed failure:
 * `timeout` (named after `what`), `aborted`, or what `onError` makes of a rejection. Timer and listener are
 * removed whichever way it ends.
 */
export async function bounded<T>(
  pending: Promise<T>,
  options: {
    readonly ms: number;
    readonly timeoutMessage: string;
    readonly onError: (error: unknown) => LspFailure;
    readonly signal?: AbortSignal | undefined;
  },
): Promise<{ value?: T; failure?: LspFailure }> {
  const { signal } = options;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<{ failure: LspFailure }>((settle) => {
    timer = setTimeout(() => settle({ failure: lspFailure('timeout', options.timeoutMessage) }), options.ms);
    onAbort = () => settle({ failure: lspFailure('aborted', 'The request was cancelled.') });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  const answered = pending.then(
    (value) => ({ value }),
    (error: unknown) => ({ failure: options.onError(error) }),
  );
  try {
    return await Promise.race([answered, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
