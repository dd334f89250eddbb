/** The messenger's Exchange on NATS JetStream: one team across processes and machines. */

/** Failure codes of {@link openNatsExchange}. */
export { NatsExchangeErrorCode } from './errors.js';
/** Limits, each overridable. */
export { DEFAULT_NATS_EXCHANGE_LIMITS, type NatsExchangeLimits } from './limits.js';
/** The transport (built by `openNatsExchange`). */
export { NatsTransport } from './nats-transport.js';
/** Opens an exchange on a NATS server. */
export { type NatsExchange, type NatsExchangeOptions, openNatsExchange } from './open.js';
