import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Paces synchronous work split into pieces (the files of a transaction, the files of a patch planned side by side):
 * {@link Turns.pace} returns to the event loop once the current turn has run for `turnMs`, and at once otherwise, so
 * timers, aborts and other calls keep being served while one call works through many small steps.
 */
export class Turns {
  #started = performance.now();

  /** Turns of at most about `turnMs` milliseconds (4 by default). */
  constructor(private readonly turnMs = 4) {}

  /** Returns to the event loop if this turn has run for `turnMs` or more. */
  async pace(): Promise<void> {
    if (performance.now() - this.#started < this.turnMs) return;
    await nextTurn();
    this.#started = performance.now();
  }
}
