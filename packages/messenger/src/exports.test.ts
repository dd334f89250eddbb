import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_MESSENGER_LIMITS",
      "Exchange",
      "ExchangeError",
      "InMemoryTransport",
      "MESSENGER_DESCRIPTION",
      "MESSENGER_ERROR_CODES",
      "MESSENGER_LIMITS",
      "MessengerRequest",
      "MessengerResponse",
      "ReceivedMessage",
      "TargetResult",
      "TransportUnavailableError",
      "WAKEUP_PREFIX",
      "createMessengerTool",
      "handleMessenger",
      "messengerProvider",
    ]
  `);
});
