import { safeJson } from './internal/safe-json.js';

/** The roles a branch message can have. */
export type MessageRole = 'system' | 'user' | 'assistant' | 'action_request' | 'action_response';

/** Content of an action_request message: what the model asked to run. */
export interface ActionRequestContent {
  readonly function: string;
  readonly arguments: unknown;
  readonly call_id: string;
}

/** Content of an action_response message: what the tool returned and how the call ended. */
export interface ActionResponseContent {
  readonly function: string;
  readonly arguments: unknown;
  readonly output: unknown;
  readonly call_id: string;
  readonly status: 'completed' | 'failed' | 'cancelled';
}

/** Message content: text, or structured data for actions. */
export type MessageContent = string | ActionRequestContent | ActionResponseContent | Readonly<Record<string, unknown>>;

/** One immutable message in a branch's full record. */
export interface Message {
  readonly id: string;
  readonly role: MessageRole;
  readonly content: MessageContent;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly sender?: string;
  readonly recipient?: string;
  /** For a cloned message, the id of the message it was copied from. */
  readonly origin?: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** The fields a caller supplies to add a message; id and timestamp are assigned by the branch. */
export interface MessageInput {
  readonly role: MessageRole;
  readonly content: MessageContent;
  readonly sender?: string;
  readonly recipient?: string;
  readonly metadata?: Record<string, unknown>;
}

/** Flattens message content to the text a model (and the token counter) sees. */
export function messageText(message: Pick<Message, 'content'>): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  // Content may hold whatever a caller passed as arguments, cycles included; this never throws.
  return content === undefined ? '' : safeJson(content);
}

/** True for action_request messages, with their content typed. */
export function isActionRequest(message: Message): message is Message & { content: ActionRequestContent } {
  return message.role === 'action_request';
}

/** True for action_response messages, with their content typed. */
export function isActionResponse(message: Message): message is Message & { content: ActionResponseContent } {
  return message.role === 'action_response';
}
