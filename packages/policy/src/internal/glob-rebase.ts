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
 *
 * The one exception: a suffix that would match `.` or `./` (a rule hiding dotfiles at every depth leaves `.*` below
 * `dir`) would also name the directory itself, which the policy matches as `.` and `./`; such suffixes are split by
 * their first one or two characters into patterns that leave exactly those two strings out.
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
  const dot = run.step(states, '.');
  const dotSlash = run.step(dot, '/');
  let patterns: string[];
  if (!run.accepts(dot) && !run.accepts(dotSlash)) patterns = run.from(states);
  else {
    // Not `.` nor `./`: a first character other than `.`; `.` then one other than `/`; `./` then at least one more.
    patterns = [
      ...run.firsts(states, '.'),
      ...run.firsts(dot, '/').map((rest) => `.${rest}`),
      ...run.firsts(dotSlash).map((rest) => `./${rest}`),
    ];
  }
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
    /** Patterns for the nonempty strings of the language of `states` whose first character is not `not`. */
    firsts(states: ReadonlySet<number>, not?: string): string[] {
      const out: string[] = [];
      for (const state of [...closure(states)].sort((a, b) => a - b)) {
        if (state === end || repeated(state)) continue;
        const { text, star } = token(state);
        if (star) out.push(`${not === undefined ? '?' : `[!${not}]`}${suffix(state)}`);
        else for (const first of without(text, not)) out.push(`${first}${suffix(state + 1)}`);
      }
      return out;
    },
  };
}

/** Single-character patterns matching what the one-character token `text` matches, except `not`. */
function without(text: string, not: string | undefined): string[] {
  if (not === undefined || !globMatch(text, not)) return [text];
  if (text === '?') return [`[!${not}]`];
  if (text.length === 1) return [];
  // A class: the code units it matches (its case partners included), less `not`, as ranges written so that no
  // endpoint can be read as anything but itself.
  const out: string[] = [];
  let from = -1;
  for (let unit = 0; unit <= 0x10000; unit++) {
    const inside = unit < 0x10000 && unit !== not.charCodeAt(0) && globMatch(text, String.fromCharCode(unit));
    if (inside && from === -1) from = unit;
    if (!inside && from !== -1) out.push(...range(from, unit - 1));
    if (!inside) from = -1;
  }
  return out;
}

const BANG = 0x21;
const CLOSE = 0x5d;

/** The units `low`…`high` as patterns: `!` cannot open a class body (it negates), `]` cannot end a range. */
function range(low: number, high: number): string[] {
  if (low === BANG) return [literal(low), ...(high > low ? range(low + 1, high) : [])];
  if (high === CLOSE && high > low) return [...range(low, high - 1), literal(high)];
  if (low === high) return [literal(low)];
  return [`[${String.fromCharCode(low)}-${String.fromCharCode(high)}]`];
}

/** One unit as a pattern matching only it (a class for the characters the matcher reads specially). */
function literal(unit: number): string {
  const ch = String.fromCharCode(unit);
  return '*?['.includes(ch) ? `[${ch}]` : ch;
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
