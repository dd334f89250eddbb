import type { NavItem } from '../schema.js';

/** Answers kept per project between edits; a few recent questions are what an agent repeats. */
const MAX_REMEMBERED_ANSWERS = 32;

/**
 * An answer is a pure function of the project's files and options, so while the project version stays the same a
 * repeated question gets the earlier answer (as fresh copies) instead of a new language-service query.
 */
export class AnswerMemo {
  /** Answers computed at `#version`; any change to the project (version bump) makes them stale. */
  #answers = new Map<string, NavItem[]>();
  #version = -1;

  /** The answer to `key` at project version `version`, computed only when not already known. */
  get(version: number, key: string, compute: () => NavItem[]): NavItem[] {
    if (this.#version !== version) {
      this.#answers.clear();
      this.#version = version;
    }
    let items = this.#answers.get(key);
    if (!items) {
      items = compute();
      if (this.#answers.size >= MAX_REMEMBERED_ANSWERS) this.#answers.delete(this.#answers.keys().next().value!);
      this.#answers.set(key, items);
    }
    return items.map((item) => ({ ...item }));
  }
}
