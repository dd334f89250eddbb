import { errorMessage } from '@bough/core';
import { Exchange } from '@bough/messenger';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { fail, type NatsExchangeFailure } from './errors.js';
import { checkName, namespace } from './internal/names.js';
import { type NatsExchangeLimits, resolveNatsExchangeLimits } from './limits.js';
import { NatsTransport } from './nats-transport.js';

/** Options of {@link openNatsExchange}. */
export interface NatsExchangeOptions {
  /** The exchange name every process of one team uses: 1 to `maxNameChars` letters, digits, `_` or `-`. */
  readonly name: string;
  /** Server URL(s), e.g. `nats://127.0.0.1:4222`; ignored when `connection` is given. */
  readonly servers?: string | string[];
  /** An open connection to use instead of connecting; `close()` leaves it open. */
  readonly connection?: NatsConnection;
  /** Channel of messages sent without one. */
  readonly defaultChannel?: string;
  /** Overrides of the default limits; a bad one makes `openNatsExchange` throw a `ConfigurationError` naming the key. */
  readonly limits?: Partial<NatsExchangeLimits>;
}

/** An exchange on NATS and its transport. */
export interface NatsExchange {
  readonly success: true;
  readonly exchange: Exchange;
  readonly transport: NatsTransport;
}

/**
 * Connects (unless given a connection), creates the exchange's streams when missing, loads the shared roster and
 * returns an {@link Exchange} over JetStream. Failures come back as values: `invalid_name`, `transport_unavailable`;
 * only a bad `limits` override throws (a `ConfigurationError` naming the key, before anything connects).
 */
export async function openNatsExchange(options: NatsExchangeOptions): Promise<NatsExchange | NatsExchangeFailure> {
  const limits = resolveNatsExchangeLimits(options.limits);
  const problem = checkName(options.name, limits);
  if (problem !== undefined) return fail('invalid_name', problem);
  let nc: NatsConnection;
  try {
    nc =
      options.connection ??
      (await connect({
        servers: options.servers ?? 'nats://127.0.0.1:4222',
        name: `bough-exchange-${options.name}`,
        maxReconnectAttempts: -1,
        reconnectTimeWait: limits.reconnectWaitMs,
        timeout: limits.requestTimeoutMs,
      }));
  } catch (error) {
    return fail('transport_unavailable', `Could not connect to NATS: ${errorMessage(error)}`);
  }
  try {
    const transport = await NatsTransport.start(nc, options.connection === undefined, namespace(options.name), limits);
    const exchange = new Exchange({
      transport,
      ...(options.defaultChannel === undefined ? {} : { defaultChannel: options.defaultChannel }),
    });
    return { success: true, exchange, transport };
  } catch (error) {
    if (options.connection === undefined) await nc.close().catch(() => {});
    return fail(
      'transport_unavailable',
      `Could not open exchange ${options.name} on JetStream: ${errorMessage(error)}`,
    );
  }
}
