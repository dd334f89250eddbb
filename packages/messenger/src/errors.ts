import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';

/** Every failure code the `messenger` tool returns (whole-call or per recipient); the README lists exactly these. */
export const MESSENGER_ERROR_CODES = defineErrorCodes([
  'invalid_request',
  'content_too_long',
  'too_many_recipients',
  'unknown_recipient',
  'exchange_failed',
  'transport_unavailable',
  'callback_failed',
  'callback_timed_out',
  'recipient_offline',
]);

/** A failure code of the `messenger` tool. */
export type MessengerErrorCode = ErrorCodeOf<typeof MESSENGER_ERROR_CODES>;

/** A failure of the `messenger` tool. */
export type MessengerFailure = ToolFailure<MessengerErrorCode>;

/** Builds a messenger failure; the code must be one of {@link MESSENGER_ERROR_CODES}. */
export const fail = failureBuilder(MESSENGER_ERROR_CODES);
