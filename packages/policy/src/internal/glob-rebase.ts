import { globMatch } from './glob-match.js';

/** What one rule pattern says about the paths below a directory, spelled relative to that directory. */
export interface RebasedGlob {
  /**
   * Patterns matching a path `p` (relative to the directory) exactly when the original matches `dir/p`: the suffixes
   * of the original that can follow `dir/`. They never match `.` or `./`, the directory's own subject (`whole` says
   * whether the original names it). Empty when no path below the directory can match.
   */
  readonly patterns: readonly string[];
  /** The original matches the directory itself (`dir` or `dir/`): as a deny rule it covers the whole directory. */
  readonly whole: boolean;
}

/**
 * A policy pattern (the fnmatch dialect of `glob-match.ts`: `*` crosses `/`, `?`, `[…]`, case-insensitive) rebased
 * onto the directory `dir` (relative, forward slashes, no `.` or `..` segments): the language derivative of the
 * pattern by `dir/`, computed by running the pattern as a small automaton over those characters. Each state is a
 * position in the pattern, so every answer is a suffix of it and the rebase is exact, with no rewriting of globs.

 * Our own code: glob libraries match paths, none computes what a pattern leaves for the paths under a prefix.
 */
export function rebaseGlob(pattern: string, dir: string): RebasedGlob {
  const run = automaton(pattern);
  let states: Set<number> = new Set([0]);
  // Characters are walked as UTF-16 code units, as the matcher's expressions (no `u` flag) read them.
  for (let i = 0; i < dir.length && states.size > 0; i++) states = run.step(states, dir[i] as string);
  const atDir = run.accepts(states);
  states = run.step(states, '/');
  const atSlash = run.accepts(states);
  const patterns = run.from(states);
  return { patterns: [...new Set(patterns)], whole: atDir || atSlash };
}

interface Token {
  readonly start: number;
  readonly text: string;
  readonly star: boolean;
}

/** The pattern as an automaton whose states are token positions (`tokens.length`: the whole pattern matched). */
function automaton(pattern: string) {
  const tokens = tokenize(pattern);
  const end = tokens.length;
  const token = (state: number) => tokens[state] as Token;
  // The positions reachable without consuming a character (a `*` may match nothing).
  const closure = (states: ReadonlySet<number>): Set<number> => {
    const out = new Set(states);
    for (const state of states) {
      let at = state;
      while (at < end && token(at).star) out.add(++at);
    }
    return out;
  };
  const suffix = (state: number) => (state === end ? '' : pattern.slice(token(state).start));
  // A `*` right after another `*` leaves the same language as the one before it, which is always in the set too.
  const repeated = (state: number) => state > 0 && token(state).star && token(state - 1).star;
  return {
    accepts: (states: ReadonlySet<number>) => closure(states).has(end),
    step(states: ReadonlySet<number>, ch: string): Set<number> {
      const next = new Set<number>();
      for (const state of closure(states)) {
        if (state === end) continue;
        if (token(state).star) next.add(state);
        else if (globMatch(token(state).text, ch)) next.add(state + 1);
      }
      return next;
    },
    /** Patterns for the language of `states` (the suffixes at them). */
    from: (states: ReadonlySet<number>) =>
      [...states]
        .sort((a, b) => a - b)
        .filter((state) => state !== end && !repeated(state))
        .map(suffix),
  };
}

/** The pattern cut where the matcher cuts it: `*`, `?`, a class `[…]` (its `]` at least two on), one literal. */
function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    const close = ch === '[' ? pattern.indexOf(']', i + 2) : -1;
    const text = close === -1 ? ch : pattern.slice(i, close + 1);
    tokens.push({ start: i, text, star: ch === '*' });
    i += text.length - 1;
  }
  return tokens;
}
