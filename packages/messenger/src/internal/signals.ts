import { fail } from '../errors.js';
import type { MessengerLimits } from '../limits.js';
import type { MessengerDeps } from '../messenger-deps.js';
import type { MessengerResponse } from '../schema.js';
import { runCallback } from './callback.js';

const NOBODY =
  'No coordinator is listening for this signal, so nobody was told; say it in a message to a teammate instead.';

/** Reports done, finished or help to the coordinator callback; a callback error becomes a typed failure. */
export async function signal(
  action: 'done' | 'finished' | 'help',
  content: string | null | undefined,
  urgency: 'fyi' | 'blocked',
  deps: MessengerDeps,
  limits: MessengerLimits,
): Promise<MessengerResponse> {
  const given = content?.trim() ?? '';
  if (action === 'help' && given === '') {
    return fail('invalid_request', 'help needs "content": the reason you need help.');
  }
  if (given.length > limits.maxContentChars) {
    return fail(
      'content_too_long',
      `The reason has ${given.length} characters; the limit is ${limits.maxContentChars}. Say it in a few sentences.`,
    );
  }
  const reason = given === '' ? 'no reason given' : given;
  const base = { name: deps.selfName, senderId: deps.selfId, reason };
  const callbacks = deps.callbacks ?? {};
  let callback: ((event: never) => unknown) | undefined;
  let event: object = base;
  if (action === 'done') callback = callbacks.onDone;
  if (action === 'finished') callback = callbacks.onFinished;
  if (action === 'help') {
    callback = callbacks.onHelp;
    event = { ...base, urgency };
  }
  let result: unknown;
  if (callback) {
    const outcome = await runCallback(callback, event as never, limits.callbackTimeoutMs, deps.signal);
    if (outcome.kind === 'threw') {
      return fail('callback_failed', `The ${action} signal was not accepted: ${outcome.message}`);
    }
    if (outcome.kind === 'timed_out') {
      return fail(
        'callback_timed_out',
        `The ${action} signal got no answer: ${outcome.message}. It may still arrive; tell a teammate if it matters.`,
      );
    }
    result = outcome.value;
  }
  return {
    success: true,
    action,
    name: deps.selfName,
    reason,
    ...(action === 'help' ? { urgency } : {}),
    handled: callback !== undefined,
    ...(result === undefined ? {} : { callback_result: result }),
    ...(callback ? {} : { note: NOBODY }),
  };
}
