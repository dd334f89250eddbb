import { type ChatModel, errorMessage, type Message, messageText } from '@bough/core';
import { type ContextFailure, fail } from '../errors.js';
import { SUMMARY_INSTRUCTION } from '../prompts.js';

const GAP = '\n[... middle of the span omitted ...]\n';

/** The span as text, at most `max` characters: the start and the end are kept, the middle is dropped when too long. */
export function summarySource(messages: readonly Message[], max: number): string {
  const text = messages.map((message) => `${message.role}: ${messageText(message)}`).join('\n---\n');
  if (text.length <= max) return text;
  if (max <= GAP.length) return safeSlice(text, 0, max);
  const room = max - GAP.length;
  const head = safeSlice(text, 0, Math.ceil(room / 2));
  const tail = safeSliceEnd(text, room - head.length);
  return `${head}${GAP}${tail}`;
}

function safeSlice(text: string, from: number, to: number): string {
  let end = to;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(from, end);
}

function safeSliceEnd(text: string, length: number): string {
  let from = text.length - length;
  const code = text.charCodeAt(from);
  if (code >= 0xdc00 && code <= 0xdfff) from += 1;
  return text.slice(from);
}

/** Asks the model for a summary; every way this can go wrong comes back as a typed never a throw. */
export async function autoSummary(
  model: ChatModel | undefined,
  span: readonly Message[],
  maxSourceChars: number,
  signal: AbortSignal | undefined,
): Promise<string | ContextFailure> {
  const retry = ' Write the summary yourself and call compact again with summary="...".';
  if (!model) {
    return fail('no_model', `auto=true needs a chat model on the branch, and there is none.${retry}`);
  }
  let text: unknown;
  try {
    const reply = await model.complete(
      [
        { role: 'system', content: SUMMARY_INSTRUCTION },
        { role: 'user', content: summarySource(span, maxSourceChars) },
      ],
      signal ? { signal } : {},
    );
    text = reply?.text;
  } catch (error) {
    if (signal?.aborted) return fail('aborted', 'The auto summary was cancelled; nothing changed.');
    return fail('auto_summary_failed', `The model could not summarise the span (${errorMessage(error)}).${retry}`);
  }
  if (typeof text !== 'string' || text.trim() === '') {
    return fail('auto_summary_failed', `The model returned an empty summary.${retry}`);
  }
  return text.trim();
}
