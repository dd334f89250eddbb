import type { BranchView } from './branch-view.js';
import type { ChatMessage, ChatToolCall, ChatToolSpec } from './chat-model.js';
import { isToolFailure } from './failure.js';
import { safeJson } from './internal/safe-json.js';
import { type Message, messageText } from './messages.js';
import { toolJsonSchema } from './schema.js';
import type { Tool } from './tool.js';

/**
 * The metadata key an assistant message uses to hold the tool calls of its turn: an array of the calls themselves
 * (`{ id, name, arguments }`, as the agent loop records them, so the stored message is the whole turn — its text and
 * its calls) or of bare call ids. A turn's text and its calls are then one assistant message in every request,
 * whatever order the calls' action_request and action_response records were appended in; a call is sent only while
 * its action_request is still in the active view (a model must see each call answered).
 */
export const TURN_CALLS_KEY = 'tool_calls';

/**
 * Renders a branch's active view as chat messages: an assistant message that claims its turn's calls (see
 * {@link TURN_CALLS_KEY}) becomes one assistant message with its text and those calls; other consecutive action
 * requests become one assistant turn with tool calls; each action response becomes a tool message answering its call
 * (a failure of one of `tools` that words its own failures, see {@link Tool.failureText}, as that text).
 */
export function branchToChatMessages(branch: BranchView, tools: readonly Tool[] = []): ChatMessage[] {
  return messagesToChat(branch.activeMessages(), tools);
}

/** The call ids an assistant message holds under {@link TURN_CALLS_KEY} (calls or bare ids), or undefined. */
export function turnCallIds(message: Message): readonly string[] | undefined {
  const claimed = message.role === 'assistant' ? message.metadata[TURN_CALLS_KEY] : undefined;
  if (!Array.isArray(claimed)) return undefined;
  return claimed.flatMap((entry: unknown) => {
    if (typeof entry === 'string') return [entry];
    const id = typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined;
    return typeof id === 'string' ? [id] : [];
  });
}

function toChatCall(message: Message): ChatToolCall {
  const content = message.content as { function: string; arguments: unknown; call_id: string };
  return { id: content.call_id, name: content.function, arguments: wireable(content.arguments) };
}

function messagesToChat(messages: readonly Message[], tools: readonly Tool[]): ChatMessage[] {
  const requests = new Map<string, Message>();
  for (const message of messages) {
    if (message.role === 'action_request') requests.set((message.content as { call_id: string }).call_id, message);
  }
  const claimed = new Set<string>();
  const out: ChatMessage[] = [];
  let pending: ChatToolCall[] = [];
  const flush = () => {
    if (pending.length > 0) out.push({ role: 'assistant', content: '', toolCalls: pending });
    pending = [];
  };
  for (const message of messages) {
    if (message.role === 'action_request') {
      const call = toChatCall(message);
      if (!claimed.has(call.id)) pending.push(call);
      continue;
    }
    flush();
    const turn = turnCallIds(message);
    if (turn) {
      const calls = turn.flatMap((id) => {
        const request = requests.get(id);
        if (!request || claimed.has(id)) return [];
        claimed.add(id);
        return [toChatCall(request)];
      });
      const text = messageText(message);
      if (calls.length > 0) out.push({ role: 'assistant', content: text, toolCalls: calls });
      else if (text !== '') out.push({ role: 'assistant', content: text });
      continue;
    }
    if (message.role === 'action_response') {
      const content = message.content as { function: string; output: unknown; call_id: string };
      const output = content.output;
      const worded = isToolFailure(output)
        ? tools.find((tool) => tool.name === content.function)?.failureText?.(output)
        : undefined;
      out.push({
        role: 'tool',
        content: worded ?? (typeof output === 'string' ? output : safeJson(output ?? null)),
        toolCallId: content.call_id,
        name: content.function,
      });
    } else {
      out.push({ role: message.role, content: messageText(message) });
    }
  }
  flush();
  return out;
}

/** Arguments that a model adapter can serialise: kept as they are when JSON can carry them, else their safe text. */
function wireable(args: unknown): unknown {
  if (typeof args === 'string') return args;
  try {
    JSON.stringify(args);
    return args;
  } catch {
    return safeJson(args);
  }
}

/** The tool specs to offer a model for a list of tools. */
export function toolsToChatSpecs(tools: readonly Tool[]): ChatToolSpec[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) }));
}
