import { TransportUnavailableError } from '@bough/messenger';
import { JetStreamApiError } from '@nats-io/jetstream';

/** JetStream's "wrong last sequence": a revision-checked write lost a race. */
export function isConflict(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.code === 10071;
}

/** JetStream's "consumer not found". */
export function isMissing(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.code === 10014;
}

/** Waits for `work` at most `ms` (closing a subscription must not hang a shutdown while the broker is away). */
export async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** The error to throw for a failed broker call: API refusals as they are, everything else (timeouts, no responders, a closed or reconnecting connection) as {@link TransportUnavailableError}. */
export function brokerError(error: unknown, what: string): Error {
  if (error instanceof TransportUnavailableError) return error;
  if (error instanceof JetStreamApiError && error.code !== 503) return error;
  const why = error instanceof Error ? error.message : String(error);
  return new TransportUnavailableError(`The NATS broker is unavailable (${what}): ${why}`);
}
