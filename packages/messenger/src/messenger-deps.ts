import type { Exchange } from './exchange.js';
import type { MessengerLimits } from './limits.js';

/** A done or finished signal as a coordinator sees it. */
export interface SignalEvent {
  readonly name: string;
  readonly senderId: string;
  readonly reason: string;
}

/** A help request as a coordinator sees it. */
export interface HelpEvent extends SignalEvent {
  readonly urgency: 'fyi' | 'blocked';
}

/** One teammate being woken up. */
export interface WakeupEvent {
  readonly name: string;
  readonly senderId: string;
  readonly target: string;
  readonly targetId: string;
  readonly message: string;
}

/** Hooks a coordinator provides to react to signals; a returned value is passed back to the model. */
export interface MessengerCallbacks {
  readonly onDone?: (event: SignalEvent) => unknown;
  readonly onFinished?: (event: SignalEvent) => unknown;
  readonly onWakeup?: (event: WakeupEvent) => unknown;
  readonly onHelp?: (event: HelpEvent) => unknown;
}

/** What was sent, handed to `record` so the sender's branch can keep a truthful log. */
export interface SentRecord {
  readonly kind: 'send' | 'wakeup';
  readonly to: readonly string[];
  readonly content: string;
  readonly messageIds: readonly string[];
  readonly channel: string;
}

/** Everything {@link handleMessenger} works with; nothing is read from module state. */
export interface MessengerDeps {
  readonly exchange: Exchange;
  /** Teammate name → branch id (owner id on the exchange). */
  readonly roster: Readonly<Record<string, string>>;
  /** The owner id messages are sent as (the bound branch's id). */
  readonly selfId: string;
  /** The name shown to teammates and callbacks. */
  readonly selfName: string;
  /** Channel of sent messages (the exchange default when omitted). */
  readonly channel?: string;
  readonly callbacks?: MessengerCallbacks;
  /** Overrides of the default limits (or limits the tool already resolved); a bad one throws naming the key. */
  readonly limits?: Partial<MessengerLimits>;
  /** Called after a successful send or wakeup. */
  readonly record?: (entry: SentRecord) => void;
  /** Cancels waiting for a coordinator callback (the tool call's signal). */
  readonly signal?: AbortSignal;
}
