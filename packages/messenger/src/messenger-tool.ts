import {
  type BranchView,
  branchProvider,
  ConfigurationError,
  defineTool,
  type Provider,
  type Tool,
  touchesNothing,
} from '@bough/core';
import { Exchange } from './exchange.js';
import { handleMessenger } from './handle-messenger.js';
import { displayName, ensureRegistered } from './internal/names.js';
import { MESSENGER_LIMITS, type MessengerLimits } from './limits.js';
import type { MessengerCallbacks, MessengerDeps, SentRecord } from './messenger-deps.js';
import { messengerSummary } from './render.js';
import { MessengerRequest, MessengerResponse } from './schema.js';

/** Options of the messenger tool and provider. */
export interface MessengerOptions {
  /** The exchange the branches talk through (required). */
  readonly exchange: Exchange;
  /** Teammate name → branch id, read on every call (so names added later are seen); default none. */
  readonly roster?: Readonly<Record<string, string>>;
  /** Name shown for the sender; a function can name each branch (clones included). Default: roster name or id prefix. */
  readonly senderName?: string | ((branch: BranchView) => string);
  /** Channel of sent messages. */
  readonly channel?: string;
  readonly callbacks?: MessengerCallbacks;
  /** Overrides of {@link DEFAULT_MESSENGER_LIMITS}; a bad one throws a `ConfigurationError` naming the key. */
  readonly limits?: Partial<MessengerLimits>;
  /**
   * How a sent message is recorded in the sender's branch: 'hidden' (default) appends it to the full record and keeps
   * it out of the active view (the tool result already shows it), 'visible' leaves it active, 'none' skips it.
   */
  readonly recordSent?: 'hidden' | 'visible' | 'none';
}

/** The model-facing description of the `messenger` tool. */
export const MESSENGER_DESCRIPTION =
  'Talk to your teammates. send: deliver "content" to one name, a list of names, or "*" for everyone; each name gets ' +
  'its own result, and unknown names are reported without stopping the others. receive: read new messages, oldest ' +
  'first (add "from" to read one teammate only); call it again while "remaining" is above 0. done: you finished your ' +
  'current task. finished: you will take no more work. wakeup: wake every listed teammate with a message. help: tell ' +
  'the coordinator why you are stuck (urgency "blocked" when you cannot continue). On unknown_recipient, check the ' +
  'names listed in the error; on exchange_failed or callback_failed, retry once and then tell a teammate instead.';

function record(branch: BranchView, mode: 'hidden' | 'visible' | 'none', entry: SentRecord): void {
  if (mode === 'none') return;
  const message = branch.addMessage({
    role: 'assistant',
    content: `[messenger ${entry.kind} to ${entry.to.join(', ')}] ${entry.content}`,
    sender: branch.id,
    metadata: {
      messenger: { kind: entry.kind, to: [...entry.to], message_ids: [...entry.messageIds], channel: entry.channel },
    },
  });
  if (mode === 'hidden') branch.evict([message.id]);
}

/** Builds the `messenger` tool bound to one branch: it sends and receives as `branch.id`. */
export function createMessengerTool(
  branch: BranchView,
  options: MessengerOptions,
  build: { readonly abandoned?: AbortSignal } = {},
): Tool<MessengerRequest, MessengerResponse> {
  const exchange = options?.exchange;
  if (!(exchange instanceof Exchange)) {
    throw new ConfigurationError('The messenger tool needs an Exchange: pass it as { exchange }.');
  }
  const roster = options.roster ?? {};
  const limits = MESSENGER_LIMITS.resolve(options.limits);
  const recordSent = options.recordSent ?? 'hidden';
  // Join the exchange as soon as the tool exists, so teammates can write to this branch before it first speaks.
  // A failure here is not fatal: the handler registers again on first use and reports a typed error if that fails.
  const joining = ensureRegistered(exchange, branch.id).catch(() => false);
  // Built for a clone that was then thrown away (another provider failed): leave the exchange again, so no
  // half-built branch stays registered and collects copies of every broadcast.
  build.abandoned?.addEventListener(
    'abort',
    () => {
      joining.then((joined) => (joined ? exchange.unregister(branch.id) : false)).catch(() => {});
    },
    { once: true },
  );
  const nameOf = (): string => {
    const given = options.senderName;
    if (typeof given === 'function') return given(branch);
    return given ?? displayName(branch.id, roster, limits.idPrefixChars);
  };
  return defineTool({
    name: 'messenger',
    description: MESSENGER_DESCRIPTION,
    request: MessengerRequest,
    response: MessengerResponse,
    scope: 'branch',
    touches: touchesNothing,
    summarize: messengerSummary,
    handler: (request, context) => {
      const deps: MessengerDeps = {
        exchange,
        roster,
        selfId: branch.id,
        selfName: nameOf(),
        limits,
        record: (entry) => record(branch, recordSent, entry),
        ...(options.channel === undefined ? {} : { channel: options.channel }),
        ...(options.callbacks ? { callbacks: options.callbacks } : {}),
        signal: context.signal,
      };
      return handleMessenger(request, { ...deps, parsedBy: context.parsedBy });
    },
  });
}

/**
 * The branch-scoped provider of the `messenger` tool. A clone gets a fresh tool that sends as the clone's id, and
 * (like every build) registers the clone on the exchange when the tool is built.
 */
export function messengerProvider(options: MessengerOptions): Provider {
  // Validated when the provider is made, so a bad override fails at set-up rather than at the first build.
  MESSENGER_LIMITS.resolve(options.limits);
  return branchProvider(
    'messenger',
    (context) => [
      createMessengerTool(context.branch, options, context.abandoned ? { abandoned: context.abandoned } : {}),
    ],
    { rebind: 'rebuild' },
  );
}
