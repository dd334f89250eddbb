import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'DEFAULT_NATS_EXCHANGE_LIMITS',
    'NATS_EXCHANGE_ERROR_CODES',
    'NATS_EXCHANGE_LIMITS',
    'NatsTransport',
    'openNatsExchange',
  ]);
});
