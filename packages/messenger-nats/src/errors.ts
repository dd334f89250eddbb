import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';

/** Every failure code `openNatsExchange` returns; the README lists exactly these. */
export const NATS_EXCHANGE_ERROR_CODES = defineErrorCodes(['invalid_name', 'transport_unavailable']);

/** A failure code of `openNatsExchange`. */
export type NatsExchangeErrorCode = ErrorCodeOf<typeof NATS_EXCHANGE_ERROR_CODES>;

/** A failure of `openNatsExchange`. */
export type NatsExchangeFailure = ToolFailure<NatsExchangeErrorCode>;

/** Builds a failure of `openNatsExchange`; the code must be one of {@link NATS_EXCHANGE_ERROR_CODES}. */
export const fail = failureBuilder(NATS_EXCHANGE_ERROR_CODES);
