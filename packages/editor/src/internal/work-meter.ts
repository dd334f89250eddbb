import { setImmediate as nextTurn } from 'node:timers/promises';

/** Steps between two returns to the event loop: a few milliseconds of work, so timers and other calls keep running. */
const STEPS_PER_TURN = 20_000;

/** Thrown inside a search when its budget is spent; {@link drive} turns it into a value, it never leaves this module's callers. */
class OverBudget extends Error {}

/**
 * Counts the work a search does. `spend` charges steps that could grow faster than the input (comparing lines at a
 * candidate place, scanning a range once per hunk) against the budget; `note` counts steps that are linear by
 * construction (computing a key per line) only for pacing. A search written as a generator yields when {@link due}
 * says so, and {@link drive} returns to the event loop there and checks the abort signal.
 */
export class WorkMeter {
  private spent = 0;
  private sinceTurn = 0;

  constructor(
    private readonly budget: number,
    readonly signal?: AbortSignal,
  ) {}

  /** Charges `steps` against the budget (a search over it stops with `too_large`). */
  spend(steps: number): void {
    this.spent += steps;
    this.sinceTurn += steps;
    if (this.spent > this.budget) throw new OverBudget();
  }

  /** Counts `steps` for pacing only. */
  note(steps: number): void {
    this.sinceTurn += steps;
  }

  /** Whether the search should yield now (enough steps since the last turn). */
  due(): boolean {
    if (this.sinceTurn < STEPS_PER_TURN) return false;
    this.sinceTurn = 0;
    return true;
  }

  /** Steps charged so far. */
  get used(): number {
    return this.spent;
  }
}

/** A search that yields (nothing) wherever it may be paused, and returns its answer. */
export type Paced<T> = Generator<void, T, void>;

/** The answer of a driven search, or why it stopped early. */
export type Driven<T> = { ok: true; value: T } | { ok: false; stop: 'too_large' | 'aborted' };

/**
 * Runs a paced search to its end, going back to the event loop at every yield (so abort, timeouts and other calls
 * are served while it runs) and stopping at the first yield after the signal aborts.
 */
export async function drive<T>(search: Paced<T>, meter: WorkMeter): Promise<Driven<T>> {
  try {
    for (let step = search.next(); ; step = search.next()) {
      if (step.done) return { ok: true, value: step.value };
      await nextTurn();
      if (meter.signal?.aborted) {
        search.return(undefined as never);
        return { ok: false, stop: 'aborted' };
      }
    }
  } catch (error) {
    if (error instanceof OverBudget) return { ok: false, stop: 'too_large' };
    throw error;
  }
}
