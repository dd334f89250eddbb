/** Counts line breaks incrementally, so line numbers for ascending offsets cost one pass over the text in total. */
export class LineCounter {
  private offset = 0;
  private line = 1;
  constructor(private readonly text: string) {}

  /** 1-based line number of `offset`; offsets must be passed in ascending order (a smaller one restarts the count). */
  lineAt(offset: number): number {
    if (offset < this.offset) {
      this.offset = 0;
      this.line = 1;
    }
    for (let i = this.text.indexOf('\n', this.offset); i >= 0 && i < offset; i = this.text.indexOf('\n', i + 1)) {
      this.line++;
    }
    this.offset = offset;
    return this.line;
  }
}

/** Offset where the line containing `offset` starts. */
export function lineStart(text: string, offset: number): number {
  return offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0;
}

/** Offset just past the line break ending the line containing `offset - 1` (or the text's end). */
export function lineEndAfter(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === '\n') return offset;
  const next = text.indexOf('\n', offset);
  return next < 0 ? text.length : next + 1;
}

/** Moves `count` whole lines up from a line start, stopping at the top. */
export function linesBack(text: string, start: number, count: number): number {
  let at = start;
  for (let n = 0; n < count && at > 0; n++) at = lineStart(text, at - 1);
  return at;
}

/** Moves `count` whole lines down from a line end, stopping at the bottom. */
export function linesForward(text: string, end: number, count: number): number {
  let at = end;
  for (let n = 0; n < count && at < text.length; n++) {
    const next = text.indexOf('\n', at);
    at = next < 0 ? text.length : next + 1;
  }
  return at;
}

/** Splits a block into lines, without the empty piece after a final line break. */
export function splitLines(block: string): string[] {
  if (block === '') return [];
  const lines = block.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Number of lines in a text as an editor counts them (a final line without a break still counts). */
export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}
