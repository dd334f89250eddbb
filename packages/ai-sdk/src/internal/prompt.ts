import type { ChatMessage, ChatToolSpec } from '@bough/core';
import type { AiSdkFunctionTool, AiSdkPromptMessage } from '../language-model.js';

/** Tool-call input as the provider spec wants it: an object; text that is not JSON becomes `{}` (its tool result says why). */
function callInput(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  try {
    return args.trim() === '' ? {} : JSON.parse(args);
  } catch {
    return {};
  }
}

/**
 * Core chat messages as an AI SDK prompt (valid for provider specifications v2, v3 and v4). An assistant message keeps its text and its tool calls
 * together, and consecutive tool messages become one tool message, so strict chat templates see one turn per turn.
 */
export function toPrompt(messages: readonly ChatMessage[]): AiSdkPromptMessage[] {
  const prompt: AiSdkPromptMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
        break;
      case 'assistant': {
        const calls = (message.toolCalls ?? []).map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: call.name,
          input: callInput(call.arguments),
        }));
        const text = message.content === '' ? [] : [{ type: 'text' as const, text: message.content }];
        if (text.length + calls.length > 0) prompt.push({ role: 'assistant', content: [...text, ...calls] });
        break;
      }
      case 'tool': {
        const part = {
          type: 'tool-result' as const,
          toolCallId: message.toolCallId ?? '',
          toolName: message.name ?? '',
          output: { type: 'text' as const, value: message.content },
        };
        const last = prompt.at(-1);
        if (last?.role === 'tool') last.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return prompt;
}

/** Core tool specs as provider-spec function tools. */
export function toFunctionTools(tools: readonly ChatToolSpec[]): AiSdkFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters,
  }));
}
