import { errorMessage, failure } from '@branchkit/core';
import { MessengerErrorCode } from '../errors.js';
import type { MessengerDeps } from '../messenger-deps.js';
import type { MessengerResponse } from '../schema.js';

const NOBODY =
  'No coordinator is listening for this signal, so nobody was told; say it in a message to a teammate instead.';

/** Reports done, finished or help to the coordinator callback; a callback error becomes a typed failure. */
export async function signal(
  action: 'done' | 'finished' | 'help',
  content: string | null | undefined,
  urgency: 'fyi' | 'blocked',
  deps: MessengerDeps,
): Promise<MessengerResponse> {
  const given = content?.trim() ?? '';
  if (action === 'help' && given === '') {
    return failure(MessengerErrorCode.invalidRequest, 'help needs "content": the reason you need help.');
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
  try {
    result = callback ? await callback(event as never) : undefined;
  } catch (error) {
    return failure(MessengerErrorCode.callbackFailed, `The ${action} signal was not accepted: ${errorMessage(error)}`);
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
