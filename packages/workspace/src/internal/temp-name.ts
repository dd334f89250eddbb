import { randomBytes } from 'node:crypto';

// Our own few lines rather than a library: a temp name only needs a random per-process part and a counter.
// Why not fresh random bytes for every name: `randomBytes` costs 15–30 µs a call on a busy machine, a measurable part
// of a small write over MCP. Why a counter behind a random prefix is still safe: every temp file is created with
// O_CREAT|O_EXCL|O_NOFOLLOW, so a name somebody guessed and planted first (a file or a link) is never opened or
// followed; the create fails with EEXIST. All a guesser (who saw an earlier name in the directory) can cause is that
// failure, and a writer that meets EEXIST calls {@link renewTempPrefix} and tries again with a name nobody has seen.
// Distinct processes (and worker threads, which load their own copy of this module) draw their own prefix.

let prefix = '';
let counter = 0;

/** Draws a new random prefix: the next names share nothing with any name handed out before. */
export function renewTempPrefix(): void {
  prefix = randomBytes(6).toString('hex');
  counter = 0;
}

/** A name for a temp file beside its target: `.bk-<12 random hex><counter in base 36>.<suffix>`. */
export function tempFileName(suffix = 'tmp'): string {
  if (prefix === '' || counter >= Number.MAX_SAFE_INTEGER) renewTempPrefix();
  return `.bk-${prefix}${(counter++).toString(36)}.${suffix}`;
}

/** Tries a create that may meet a planted name at most this many times, a fresh prefix each retry. */
export const TEMP_CREATE_TRIES = 3;
