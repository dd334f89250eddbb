/** A window of the file that resembles `old_string`, reported when the exact text was not found. */
export interface Candidate {
  start_line: number;
  end_line: number;
  /** Mean per-line similarity of the line-trimmed texts, 0..1, two decimals. */
  similarity: number;
  /** What separates the window from old_string: only indentation/spacing, or the text itself. */
  difference: 'whitespace_only' | 'content';
  /** The window as it is in the file (line endings normalized to LF), possibly cut. */
  text: string;
}
