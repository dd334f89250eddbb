import { errorMessage } from '@bough/core';
import { fail, type MessengerErrorCode } from '../errors.js';
import { MESSENGER_LIMITS, type MessengerLimits } from '../limits.js';
import type { MessengerDeps } from '../messenger-deps.js';
import { WAKEUP_PREFIX } from '../prefixes.js';
import type { MessengerResponse, ReceivedMessage, TargetResult } from '../schema.js';
import { TransportUnavailableError } from '../transport-error.js';
import { runCallback } from './callback.js';
import { displayName, ensureRegistered, knownNames, resolveTarget } from './names.js';

type Kind = 'send' | 'wakeup';

/** Checks the fields of a send or wakeup; returns the target names or a failure. */
export function checkOutgoing(
  kind: Kind,
  to: string | string[] | null | undefined,
  content: string | null | undefined,
  limits: MessengerLimits,
): string[] | MessengerResponse {
  if (to === undefined || to === null || content === undefined || content === null || content.trim() === '') {
    return fail('invalid_request', `${kind} needs both "to" (a teammate name or a list) and "content".`);
  }
  if (content.length > limits.maxContentChars) {
    return fail(
      'content_too_long',
      `The message has ${content.length} characters; the limit is ${limits.maxContentChars}. Put long material in a file and send its path.`,
    );
  }
  const names = [...new Set(Array.isArray(to) ? to : [to])];
  const long = names.find((name) => name.length > limits.maxNameChars);
  if (long !== undefined) {
    return fail(
      'invalid_request',
      `A name in "to" has ${long.length} characters; names are at most ${limits.maxNameChars}. Use roster names.`,
    );
  }
  if (kind === 'wakeup' && names.includes('*')) {
    return fail('invalid_request', 'wakeup needs teammate names; "*" is only for send.');
  }
  if (names.length > limits.maxRecipients) {
    return fail(
      'too_many_recipients',
      `${names.length} recipients is more than ${limits.maxRecipients}; use to="*" to message everyone.`,
    );
  }
  return names;
}

/** Sends (or wakes) every named teammate, one result per name; never throws. */
export async function deliver(
  kind: Kind,
  names: string[],
  content: string,
  deps: MessengerDeps,
): Promise<MessengerResponse> {
  const { exchange, selfId } = deps;
  try {
    await ensureRegistered(exchange, selfId);
  } catch (error) {
    return fail(codeOf(error), `The exchange refused this sender: ${errorMessage(error)}`);
  }
  const text = kind === 'wakeup' ? `${WAKEUP_PREFIX} ${content}` : content;
  const channel = deps.channel === undefined ? {} : { channel: deps.channel };
  const results: TargetResult[] = [];
  const sent: { to: string; id: string; channel: string }[] = [];
  for (const name of names) {
    let targetId: string | null | undefined = null;
    try {
      if (name !== '*') targetId = await resolveTarget(name, deps.roster, exchange);
    } catch (error) {
      const why = `The exchange could not look up ${name}: ${errorMessage(error)}`;
      results.push({ to: name, ok: false, error_code: codeOf(error), error: why });
      continue;
    }
    if (targetId === undefined) {
      const error = `No teammate named ${name}. Known names: ${knownNames(deps.roster)}.`;
      results.push({ to: name, ok: false, error_code: 'unknown_recipient', error });
      continue;
    }
    if (targetId !== null && !(await isOnExchange(exchange, targetId))) {
      const error = `${name} is on the roster but not on the exchange (not started yet, or gone), so nothing was sent. Try again later or message someone else.`;
      results.push({ to: name, ok: false, error_code: 'recipient_offline', error });
      continue;
    }
    let messageId: string;
    try {
      const message = await exchange.send(selfId, targetId, text, channel);
      messageId = message.id;
      sent.push({ to: name, id: message.id, channel: message.channel });
    } catch (error) {
      const why = `The exchange could not send to ${name}: ${errorMessage(error)}`;
      results.push({ to: name, ok: false, error_code: codeOf(error), error: why });
      continue;
    }
    results.push(await wakeTarget(kind, name, targetId, content, messageId, deps));
  }
  let note: string | undefined;
  if (sent.length > 0) {
    const stuck = exchange.pendingCount;
    if (stuck > 0) note = `${stuck} deliveries failed and will be retried by the exchange.`;
    deps.record?.({
      kind,
      to: sent.map((entry) => entry.to),
      content: text,
      messageIds: sent.map((entry) => entry.id),
      channel: sent[0]?.channel ?? 'default',
    });
  }
  if (results.some((result) => result.ok)) return { success: true, action: kind, results, ...(note ? { note } : {}) };
  const first = results[0];
  return fail(
    first?.error_code ?? 'exchange_failed',
    `No target succeeded; the first problem: ${first?.error ?? 'no targets'}`,
    {
      results,
    },
  );
}

async function wakeTarget(
  kind: Kind,
  name: string,
  targetId: string | null,
  content: string,
  messageId: string,
  deps: MessengerDeps,
): Promise<TargetResult> {
  const onWakeup = deps.callbacks?.onWakeup;
  if (kind !== 'wakeup' || !onWakeup || targetId === null) return { to: name, ok: true, message_id: messageId };
  const event = { name: deps.selfName, senderId: deps.selfId, target: name, targetId, message: content };
  const limits = MESSENGER_LIMITS.resolve(deps.limits);
  const outcome = await runCallback(onWakeup, event, limits.callbackTimeoutMs, deps.signal);
  if (outcome.kind === 'value') {
    const result = outcome.value;
    return { to: name, ok: true, message_id: messageId, ...(result === undefined ? {} : { callback_result: result }) };
  }
  const code = outcome.kind === 'threw' ? 'callback_failed' : 'callback_timed_out';
  const why = `The message was queued, but the wakeup callback for ${name} failed: ${outcome.message}`;
  return { to: name, ok: false, message_id: messageId, error_code: code, error: why };
}

async function isOnExchange(exchange: MessengerDeps['exchange'], id: string): Promise<boolean> {
  try {
    return await exchange.has(id);
  } catch {
    // Let the send itself report the exchange failure.
    return true;
  }
}

/** Delivers pending mail, then takes this owner's new messages, oldest first, with sender names. */
export async function receive(
  from: string | null | undefined,
  deps: MessengerDeps,
  limits: MessengerLimits,
): Promise<MessengerResponse> {
  const { exchange, selfId, roster } = deps;
  if (from !== undefined && from !== null && from.length > limits.maxNameChars) {
    return fail(
      'invalid_request',
      `"from" has ${from.length} characters; names are at most ${limits.maxNameChars}. Use a roster name.`,
    );
  }
  try {
    await ensureRegistered(exchange, selfId);
    let sender: string | undefined;
    if (from !== undefined && from !== null) {
      sender = await resolveTarget(from, roster, exchange);
      if (sender === undefined) {
        return fail('unknown_recipient', `No teammate named ${from}. Known names: ${knownNames(roster)}.`);
      }
    }
    await exchange.drainPending();
    const taken = await exchange.popMany(selfId, { limit: limits.maxReceive, ...(sender ? { sender } : {}) });
    const remaining = (await exchange.receive(selfId, sender)).length;
    const messages: ReceivedMessage[] = [...taken]
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((message) => ({
        id: message.id,
        from: displayName(message.sender, roster, limits.idPrefixChars),
        sender_id: message.sender,
        content: message.content,
        channel: message.channel,
        sent_at: new Date(message.createdAt).toISOString(),
      }));
    return {
      success: true,
      action: 'receive',
      messages,
      remaining,
      ...(messages.length === 0 ? { note: 'No new messages.' } : {}),
    };
  } catch (error) {
    return fail(codeOf(error), `The exchange failed while receiving: ${errorMessage(error)}`);
  }
}

/** `transport_unavailable` for a storage outage (retry later), `exchange_failed` for anything else. */
function codeOf(error: unknown): MessengerErrorCode {
  return error instanceof TransportUnavailableError ? 'transport_unavailable' : 'exchange_failed';
}
