/**
 * Thrown by an {@link ExchangeTransport} when its storage cannot be reached (a broker outage or a timeout); the
 * operation had no effect that the caller can rely on, and can be retried once the storage is back.
 */
export class TransportUnavailableError extends Error {
  override readonly name = 'TransportUnavailableError';
  /** The failure code the messenger tool reports for it. */
  readonly code = 'transport_unavailable';
}
