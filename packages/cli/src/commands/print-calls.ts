import type { ActionRequestContent, ActionResponseContent, Branch } from '@branchkit/core';
import type { CliIO } from '../output.js';

/** Prints each tool call on a branch as it happens (request line, then a short result); returns an unsubscribe. */
export function printCalls(branch: Branch, io: CliIO, options: { json?: boolean; prefix?: string } = {}): () => void {
  const prefix = options.prefix ?? '';
  return branch.subscribe((event) => {
    if (event.type !== 'message') return;
    const { message } = event;
    if (options.json) {
      if (message.role === 'action_response') io.stdout(`${JSON.stringify(message.content)}\n`);
      return;
    }
    if (message.role === 'action_request') {
      const content = message.content as ActionRequestContent;
      io.stdout(`${prefix}→ ${content.function} ${clip(JSON.stringify(content.arguments), 160)}\n`);
    } else if (message.role === 'action_response') {
      const content = message.content as ActionResponseContent;
      io.stdout(`${prefix}  ${summarize(content.output)}\n`);
    }
  });
}

/** A one-to-few-line readable summary of a tool output. */
export function summarize(output: unknown): string {
  if (typeof output !== 'object' || output === null) return clip(String(output), 300);
  const value = output as Record<string, unknown>;
  if (value.success === false) return `✗ [${String(value.error_code)}] ${clip(String(value.error), 300)}`;
  if (typeof value.status === 'string' && typeof value.summary === 'string') {
    const mark = value.status === 'error' || value.status === 'unavailable' ? '✗' : '✓';
    const detail =
      typeof value.text === 'string' && value.text ? `\n    ${clip(value.text, 400).replaceAll('\n', '\n    ')}` : '';
    return `${mark} ${value.status}: ${value.summary}${detail}`;
  }
  if ('return_code' in value) {
    return `✓ exit ${String(value.return_code)}${value.timed_out ? ' (timed out)' : ''}: ${clip(String(value.stdout ?? '').trim(), 300)}`;
  }
  const text = typeof value.content === 'string' ? value.content : JSON.stringify(value);
  return `✓ ${clip(text, 400).replaceAll('\n', '\n    ')}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (+${text.length - max} chars)` : text;
}
