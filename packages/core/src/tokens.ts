import { createRequire } from 'node:module';
import { type Message, messageText } from './messages.js';

type Encoder = { countTokens(text: string): number };
let encoder: Encoder | undefined;

function load(): Encoder {
  if (!encoder) {
    // The o200k_base ranks are several megabytes; load them on the first count, not at import.
    const require = createRequire(import.meta.url);
    encoder = require('gpt-tokenizer/encoding/o200k_base') as Encoder;
  }
  return encoder;
}

/** Exact o200k_base token count of a text (the encoding of current OpenAI models). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return load().countTokens(text);
}

const cache = new WeakMap<Message, number>();

/** Token count of one message's text, cached per (immutable) message object. */
export function messageTokens(message: Message): number {
  let count = cache.get(message);
  if (count === undefined) {
    count = countTokens(messageText(message));
    cache.set(message, count);
  }
  return count;
}
