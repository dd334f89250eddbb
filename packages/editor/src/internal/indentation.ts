/** Re-indents one line of new_string the way old_string's lines were shifted to match the file; undefined if it cannot. */
export type Reindent = (line: string) => string | undefined;

const indentOf = (line: string): string => /^[ \t]*/u.exec(line)![0];

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The indentation unit of a set of indents: a tab, N spaces (their gcd), null when mixed, undefined when all empty. */
function unitOf(indents: readonly string[]): string | null | undefined {
  let tabs = false;
  let spaces = 0;
  for (const indent of indents) {
    if (indent === '') continue;
    if (/^\t+$/u.test(indent)) tabs = true;
    else if (/^ +$/u.test(indent)) spaces = gcd(spaces, indent.length);
    else return null;
  }
  if (tabs && spaces > 0) return null;
  if (tabs) return '\t';
  return spaces > 0 ? ' '.repeat(spaces) : undefined;
}

function levelOf(indent: string, unit: string | undefined): number | undefined {
  if (indent === '') return 0;
  if (unit === undefined || indent.length % unit.length !== 0) return undefined;
  return indent.split(unit).length - 1 === indent.length / unit.length ? indent.length / unit.length : undefined;
}

/**
 * Works out one consistent indentation change that turns old_string's lines into the file's window: a fixed prefix
 * added or removed, or (tabs against spaces, 2 against 4 spaces) the same nesting levels in the file's unit, shifted by
 * a constant. Blank lines do not count. Returns how to re-indent a new line, or undefined when no single change fits.
 */
export function reindentFor(
  old: readonly string[],
  window: readonly string[],
  isBlank: (line: string) => boolean,
): Reindent | undefined {
  const pairs: Array<[string, string]> = [];
  for (let j = 0; j < old.length; j++) {
    if (isBlank(old[j]!) || isBlank(window[j]!)) continue;
    pairs.push([indentOf(old[j]!), indentOf(window[j]!)]);
  }
  if (pairs.length === 0) return (line) => line;
  const [o0, f0] = pairs[0]!;
  if (f0.endsWith(o0)) {
    const add = f0.slice(0, f0.length - o0.length);
    if (pairs.every(([o, f]) => f === add + o)) return (line) => add + line;
  }
  if (o0.endsWith(f0)) {
    const cut = o0.slice(0, o0.length - f0.length);
    if (pairs.every(([o, f]) => o === cut + f)) {
      return (line) => (line.startsWith(cut) ? line.slice(cut.length) : undefined);
    }
  }
  const oldUnit = unitOf(pairs.map(([o]) => o));
  const fileUnit = unitOf(pairs.map(([, f]) => f));
  if (oldUnit === null || fileUnit === null || fileUnit === undefined) return undefined;
  let shift: number | undefined;
  for (const [o, f] of pairs) {
    const ol = levelOf(o, oldUnit);
    const fl = levelOf(f, fileUnit);
    if (ol === undefined || fl === undefined) return undefined;
    if (shift === undefined) shift = fl - ol;
    else if (shift !== fl - ol) return undefined;
  }
  const by = shift ?? 0;
  return (line) => {
    const indent = indentOf(line);
    const level = levelOf(indent, oldUnit ?? fileUnit);
    if (level === undefined || level + by < 0) return undefined;
    return fileUnit.repeat(level + by) + line.slice(indent.length);
  };
}
