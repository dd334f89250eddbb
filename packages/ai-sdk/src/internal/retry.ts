// Our own twenty lines rather than p-retry (9.0.0): p-retry's delay comes only from its backoff options, while a model
// server's `Retry-After` / `retry-after-ms` must set the wait (and a wait longer than `maxRetryAfterMs` must end the
// call with that reason); the loop that uses these lives in chat-model.ts.

/** The wait the server asked for in `retry-after-ms` or `Retry-After` (seconds or an HTTP date), if any. */
export function retryAfterMs(headers: Readonly<Record<string, string | undefined>> | undefined): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const ms = Number.parseFloat(lower['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = lower['retry-after'];
  if (raw === undefined || raw.trim() === '') return undefined;
  const seconds = Number(raw.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** Exponential backoff: `initial`, then twice as long each retry, never more than `max`. */
export function backoffMs(retry: number, initial: number, max: number): number {
  return Math.min(max, initial * 2 ** Math.max(0, retry - 1));
}
