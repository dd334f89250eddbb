/** The failure code table of the `messenger` tool. */
export { MESSENGER_ERROR_CODES, type MessengerErrorCode, type MessengerFailure } from './errors.js';
/** The exchange: owners, inboxes and in-flight deliveries. */
export { type CollectReport, Exchange, ExchangeError, type ExchangeOptions } from './exchange.js';
/** The storage interface under an exchange, so a broker can replace the in-memory default. */
export type { Delivery, ExchangeMessage, ExchangeTransport, InboxQuery } from './exchange-transport.js';
/** The pure handler and what it works with. */
export { handleMessenger } from './handle-messenger.js';
/** Limits of the tool, each overridable. */
export { DEFAULT_MESSENGER_LIMITS, MESSENGER_LIMITS, type MessengerLimits } from './limits.js';
export { InMemoryTransport } from './memory-transport.js';
export type {
  HelpEvent,
  MessengerCallbacks,
  MessengerDeps,
  SentRecord,
  SignalEvent,
  WakeupEvent,
} from './messenger-deps.js';
/** The tool, its description and its branch-scoped provider. */
export {
  createMessengerTool,
  MESSENGER_DESCRIPTION,
  type MessengerOptions,
  messengerProvider,
} from './messenger-tool.js';
export { WAKEUP_PREFIX } from './prefixes.js';
/** Request and response schemas (also the TypeScript types). */
export {
  type MessengerFailureResponse,
  type MessengerInput,
  MessengerRequest,
  MessengerResponse,
  type MessengerResponseFor,
  type MessengerSuccessByAction,
  ReceivedMessage,
  TargetResult,
} from './schema.js';
/** Thrown by a transport when its storage (a broker) cannot be reached. */
export { TransportUnavailableError } from './transport-error.js';
