import type { BranchView } from './branch-view.js';
import type { ChatMessage, ChatToolCall, ChatToolSpec } from './chat-model.js';
import { safeJson } from './internal/safe-json.js';
import { type Message, messageText } from './messages.js';
import { toolJsonSchema } from './schema.js';
import type { Tool } from './tool.js';

/**
 * Renders a branch's active view as chat messages: consecutive action requests become one assistant turn with
 * tool calls, and each action response becomes a tool message answering its call.
 */
export function branchToChatMessages(branch: BranchView): ChatMessage[] {
  return messagesToChat(branch.activeMessages());
}

function messagesToChat(messages: readonly Message[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let pending: ChatToolCall[] = [];
  const flush = () => {
    if (pending.length > 0) out.push({ role: 'assistant', content: '', toolCalls: pending });
    pending = [];
  };
  for (const message of messages) {
    if (message.role === 'action_request') {
      const content = message.content as { function: string; arguments: unknown; call_id: string };
      pending.push({ id: content.call_id, name: content.function, arguments: wireable(content.arguments) });
      continue;
    }
    flush();
    if (message.role === 'action_response') {
      const content = message.content as { function: string; output: unknown; call_id: string };
      out.push({
        role: 'tool',
        content: typeof content.output === 'string' ? content.output : safeJson(content.output ?? null),
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
