/** The failure codes `openNatsExchange` returns. */
export const NatsExchangeErrorCode = {
  invalidName: 'invalid_name',
  transportUnavailable: 'transport_unavailable',
} as const;
