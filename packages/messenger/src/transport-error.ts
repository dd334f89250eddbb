import { BoughError, type BoughErrorOptions } from '@bough/core';

/**
 * Thrown by an {@link ExchangeTransport} when its storage cannot be reached (a broker outage or a timeout); the
 * operation had no effect that the caller can rely on, and can be retried once the storage is back. Its `code`,
 * `transport_unavailable`, is also the failure code the messenger tool reports for it.
 */
export class TransportUnavailableError extends BoughError {
  override readonly code = 'transport_unavailable';
  constructor(message: string, options: BoughErrorOptions = {}) {
    super(message, { ...options, code: 'transport_unavailable' });
  }
}
