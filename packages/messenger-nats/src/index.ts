/** The messenger's Exchange on NATS JetStream: one team across processes and machines. */

/** The failure code table of {@link openNatsExchange}. */
export { NATS_EXCHANGE_ERROR_CODES, type NatsExchangeErrorCode, type NatsExchangeFailure } from './errors.js';
/** Limits, each overridable. */
export { DEFAULT_NATS_EXCHANGE_LIMITS, NATS_EXCHANGE_LIMITS, type NatsExchangeLimits } from './limits.js';
/** The transport (built by `openNatsExchange`). */
export { NatsTransport } from './nats-transport.js';
/** Opens an exchange on a NATS server. */
export { type NatsExchange, type NatsExchangeOptions, openNatsExchange } from './open.js';
