import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a search runs before it returns to the event loop, so timers and other calls keep being served. */
export const TURN_MS = 8;
/** Steps between two looks at the clock. */
const STEPS_PER_LOOK = 1_000;
/** Steps after which a search returns to the event loop whatever the clock says (a slow clock never starves others). */
const MAX_STEPS_PER_TURN = 50_000;

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
  private sinceLook = 0;
  private turnStarted = performance.now();

  constructor(
    private readonly budget: number,
    readonly signal?: AbortSignal,
  ) {}

  /** Charges `steps` against the budget (a search over it stops with `too_large`). */
  spend(steps: number): void {
    this.spent += steps;
    this.sinceTurn += steps;
    this.sinceLook += steps;
    if (this.spent > this.budget) throw new OverBudget();
  }

  /** Counts `steps` for pacing only. */
  note(steps: number): void {
    this.sinceTurn += steps;
    this.sinceLook += steps;
  }

  /** Whether the search should yield now: it has run for a few milliseconds, or for many steps, since the last turn. */
  due(): boolean {
    if (this.sinceLook < STEPS_PER_LOOK) return false;
    this.sinceLook = 0;
    const now = performance.now();
    if (this.sinceTurn < MAX_STEPS_PER_TURN && now - this.turnStarted < TURN_MS) return false;
    this.sinceTurn = 0;
    this.turnStarted = now;
    return true;
  }

  /** Marks the start of a new turn (after the event loop ran). */
  resumed(): void {
    this.turnStarted = performance.now();
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
      meter.resumed();
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

/** Runs a paced search to its end without pausing (for callers that are not async, on inputs known to be small). */
export function finish<T>(search: Paced<T>): T {
  for (let step = search.next(); ; step = search.next()) if (step.done) return step.value;
}
