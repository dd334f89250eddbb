import { failureSchema } from '@bough/core';
import { z } from 'zod';
import { MESSENGER_ERROR_CODES, type MessengerFailure } from './errors.js';

/** The request of the `messenger` tool. */
export const MessengerRequest = z
  .object({
    action: z
      .enum(['send', 'receive', 'done', 'finished', 'wakeup', 'help'])
      .describe(
        'send: message teammates. receive: read your new messages. done: you finished the current task (you may ' +
          'get more work). finished: you are permanently finished. wakeup: wake idle teammates with a message. ' +
          'help: ask the coordinator for help.',
      ),
    to: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .nullish()
      .describe(
        'send/wakeup: one teammate name or a list of names from the roster; send also takes "*" for everyone. ' +
          'wakeup wakes EVERY listed name, each with its own result.',
      ),
    content: z
      .string()
      .nullish()
      .describe(
        'send/wakeup: the message. done/finished: an optional reason. help: the reason you need help (required).',
      ),
    urgency: z
      .enum(['fyi', 'blocked'])
      .default('fyi')
      .describe('help: "blocked" when you cannot continue without an answer, otherwise "fyi".'),
    from: z.string().min(1).nullish().describe('receive: only read messages from this teammate.'),
  })
  .strict();

/** The parsed request type of the `messenger` tool. */
export type MessengerRequest = z.infer<typeof MessengerRequest>;
/** What a caller passes: the schema's input type (fields with defaults, such as `urgency`, may be left out). */
export type MessengerInput = z.input<typeof MessengerRequest>;

/** The outcome for one addressed teammate of a send or wakeup. */
export const TargetResult = z.object({
  to: z.string(),
  ok: z.boolean(),
  message_id: z.string().optional(),
  error_code: z.enum(MESSENGER_ERROR_CODES).optional(),
  error: z.string().optional(),
  callback_result: z.unknown().optional(),
});

/** The outcome for one addressed teammate (type). */
export type TargetResult = z.infer<typeof TargetResult>;

/** One received message as the model sees it. */
export const ReceivedMessage = z.object({
  id: z.string(),
  from: z.string().describe('Roster name of the sender, or the first characters of its id.'),
  sender_id: z.string(),
  content: z.string(),
  channel: z.string(),
  sent_at: z.string().describe('ISO 8601 time the message was sent.'),
});

/** One received message (type). */
export type ReceivedMessage = z.infer<typeof ReceivedMessage>;

const Delivered = z.object({
  success: z.literal(true),
  action: z.enum(['send', 'wakeup']),
  results: z.array(TargetResult),
  note: z.string().optional(),
});

const Received = z.object({
  success: z.literal(true),
  action: z.literal('receive'),
  messages: z.array(ReceivedMessage),
  remaining: z.number().int().describe('Messages still queued for you; call receive again to read them.'),
  note: z.string().optional(),
});

const Signalled = z.object({
  success: z.literal(true),
  action: z.enum(['done', 'finished', 'help']),
  name: z.string(),
  reason: z.string(),
  urgency: z.enum(['fyi', 'blocked']).optional(),
  handled: z.boolean().describe('Whether a coordinator callback received the signal.'),
  callback_result: z.unknown().optional(),
  note: z.string().optional(),
});

const Failure = failureSchema(MESSENGER_ERROR_CODES).extend({
  results: z.array(TargetResult).optional().describe('send/wakeup: the outcome for each addressed teammate.'),
});

/** Every shape the `messenger` tool can return. */
export const MessengerResponse = z.union([Delivered, Received, Signalled, Failure]);

/** The success shape of each action, so a response narrows by `success` and then by `action`. */
export interface MessengerSuccessByAction {
  send: z.infer<typeof Delivered> & { action: 'send' };
  wakeup: z.infer<typeof Delivered> & { action: 'wakeup' };
  receive: z.infer<typeof Received>;
  done: z.infer<typeof Signalled> & { action: 'done' };
  finished: z.infer<typeof Signalled> & { action: 'finished' };
  help: z.infer<typeof Signalled> & { action: 'help' };
}

/** A messenger failure; a send or wakeup that reached no one carries each teammate's outcome in `results`. */
export type MessengerFailureResponse = MessengerFailure & { readonly results?: TargetResult[] };

/** A response value of the `messenger` tool: one action's success, or a typed failure (narrow with `success`). */
export type MessengerResponse = MessengerSuccessByAction[keyof MessengerSuccessByAction] | MessengerFailureResponse;

/** The response to a request with action `A`: that action's success shape or a messenger failure. */
export type MessengerResponseFor<A extends MessengerInput['action']> =
  | MessengerSuccessByAction[A]
  | MessengerFailureResponse;
