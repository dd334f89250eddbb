/** The error codes the `messenger` tool returns, so callers can branch on them. */
export const MessengerErrorCode = {
  invalidRequest: 'invalid_request',
  contentTooLong: 'content_too_long',
  tooManyRecipients: 'too_many_recipients',
  unknownRecipient: 'unknown_recipient',
  exchangeFailed: 'exchange_failed',
  transportUnavailable: 'transport_unavailable',
  callbackFailed: 'callback_failed',
  callbackTimedOut: 'callback_timed_out',
  recipientOffline: 'recipient_offline',
} as const;
