import { createRequire } from 'node:module';
import { type BranchView, type Message, messageText } from '@bough/core';

type Encoder = { countTokens(text: string): number };
let encoder: Encoder | undefined;

function load(): Encoder {
  if (!encoder) {
    // The o200k_base ranks are several megabytes; load them on the first count, not at import. They live here, not in
    // core, so installing a tool package that never counts tokens does not install the tokenizer.
    const require = createRequire(import.meta.url);
    encoder = require('gpt-tokenizer/encoding/o200k_base') as Encoder;
  }
  return encoder;
}

/**
 * Unbroken runs (no whitespace, or only whitespace) longer than this are counted in slices: byte-pair merging is
 * quadratic in the length of one pre-token, so a single 1 MB run of one character would otherwise block the process
 * for many minutes. Ordinary text never has such runs and is counted exactly.
 */
export const TOKEN_COUNT_LONG_RUN_CHARS = 2_000;
/** Slice length used inside such a run (each slice boundary may shift the count by a token). */
const RUN_SLICE_CHARS = 512;
const LONG_RUN = new RegExp(`\\S{${TOKEN_COUNT_LONG_RUN_CHARS + 1},}|\\s{${TOKEN_COUNT_LONG_RUN_CHARS + 1},}`, 'g');

/**
 * o200k_base token count of a text (the encoding of current OpenAI models). Exact, except inside unbroken runs of
 * more than {@link TOKEN_COUNT_LONG_RUN_CHARS} characters, which are counted in slices and may be off by about one
 * token per 512 characters of such a run.
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  const encoder = load();
  if (text.length <= TOKEN_COUNT_LONG_RUN_CHARS) return encoder.countTokens(text);
  let total = 0;
  let from = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    const at = match.index ?? 0;
    if (at > from) total += encoder.countTokens(text.slice(from, at));
    total += countRun(encoder, match[0]);
    from = at + match[0].length;
  }
  if (from === 0) return encoder.countTokens(text);
  if (from < text.length) total += encoder.countTokens(text.slice(from));
  return total;
}

function countRun(encoder: Encoder, run: string): number {
  let total = 0;
  let at = 0;
  while (at < run.length) {
    let end = Math.min(at + RUN_SLICE_CHARS, run.length);
    // Keep surrogate pairs whole so no slice ends in half a character.
    const code = run.charCodeAt(end - 1);
    if (end < run.length && code >= 0xd800 && code <= 0xdbff) end += 1;
    total += encoder.countTokens(run.slice(at, end));
    at = end;
  }
  return total;
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

/** Exact o200k_base token count of a branch's active view (per-message counts are cached). */
export function activeTokenCount(branch: Pick<BranchView, 'activeMessages'>): number {
  let total = 0;
  for (const message of branch.activeMessages()) total += messageTokens(message);
  return total;
}
