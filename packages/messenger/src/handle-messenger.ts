import { describeZodError, parseOnce, type ToolContext } from '@bough/core';
import { fail } from './errors.js';
import { checkOutgoing, deliver, receive } from './internal/mail.js';
import { signal } from './internal/signals.js';
import { MESSENGER_LIMITS } from './limits.js';
import type { MessengerDeps } from './messenger-deps.js';
import { type MessengerInput, MessengerRequest, type MessengerResponse, type MessengerResponseFor } from './schema.js';

/**
 * Runs one `messenger` request as `deps.selfId`. Pure with respect to module state; every expected failure,
 * including an exception from the exchange or a callback, comes back as a typed value.
 */
export async function handleMessenger<R extends MessengerInput>(
  request: R,
  deps: MessengerDeps & Pick<ToolContext, 'parsedBy'>,
): Promise<MessengerResponseFor<R['action']>> {
  return (await messengerResponse(request, deps)) as MessengerResponseFor<R['action']>;
}

async function messengerResponse(
  request: unknown,
  deps: MessengerDeps & Pick<ToolContext, 'parsedBy'>,
): Promise<MessengerResponse> {
  const limits = MESSENGER_LIMITS.resolve(deps.limits);
  const parsed = parseOnce(MessengerRequest, request, deps.parsedBy);
  if (!parsed.success) {
    return fail('invalid_request', `Invalid messenger request: ${describeZodError(parsed.error)}`);
  }
  const req = parsed.data;
  switch (req.action) {
    case 'send':
    case 'wakeup': {
      const names = checkOutgoing(req.action, req.to, req.content, limits);
      if (!Array.isArray(names)) return names;
      return deliver(req.action, names, req.content as string, deps);
    }
    case 'receive':
      return receive(req.from, deps, limits);
    case 'done':
    case 'finished':
    case 'help':
      return signal(req.action, req.content, req.urgency, deps, limits);
  }
}
