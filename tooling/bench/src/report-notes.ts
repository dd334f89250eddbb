import type { BenchRow } from './harness.js';

/** The longest row name a table line shows; a longer one is cut and given in full in a note. */
export const SHORT_NAME_MAX = 60;

/**
 * The name a table line shows. Suites give short names (the long text in `detail`); a row from a suite that still
 * has a long name keeps working: the name is cut at a word boundary with an ellipsis (not at a parenthesis, which may
 * belong to a pattern), and the full name goes into the row's notes.
 */
export function shortName(row: BenchRow): string {
  const name = row.name;
  if (name.length <= SHORT_NAME_MAX) return name;
  const cut = name.slice(0, SHORT_NAME_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > SHORT_NAME_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The notes of one row, in the order they are numbered: the full name, the detail, the peer, the remark. */
function notesOf(row: BenchRow): string[] {
  const notes: string[] = [];
  if (shortName(row) !== row.name) notes.push(`In full: ${row.name}.`);
  if (row.detail) notes.push(sentence(row.detail));
  if (row.peerLabel && row.peerLabel !== 'limit' && row.peer !== undefined) notes.push(`Peer: ${row.peerLabel}.`);
  if (row.note) notes.push(sentence(row.note));
  return notes;
}

function sentence(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The numbered notes of a section, each text once, and for each row the numbers it points to. */
export interface Footnotes {
  readonly texts: readonly string[];
  readonly refs: readonly (readonly number[])[];
}

/** Numbers the notes of a section's rows in order of first use; a text several rows share gets one number. */
export function footnotes(rows: readonly BenchRow[]): Footnotes {
  const texts: string[] = [];
  const refs = rows.map((row) =>
    notesOf(row)
      .map((text) => {
        const at = texts.indexOf(text);
        if (at >= 0) return at + 1;
        texts.push(text);
        return texts.length;
      })
      .sort((a, b) => a - b),
  );
  return { texts, refs };
}
