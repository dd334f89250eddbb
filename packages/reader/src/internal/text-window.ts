import { RowBuilder, type WindowResult } from './row-builder.js';

/** A window over text already in memory (converted documents, UTF-16 files), with the total line count. */
export function textWindow(
  text: string,
  offset: number,
  limit: number,
  maxLineChars: number,
  maxOutputBytes: number,
): WindowResult & { totalLines: number } {
  const builder = new RowBuilder(offset, limit, maxLineChars, maxOutputBytes);
  let index = 0;
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    if (!builder.before(index) && !builder.done) builder.add(index, text.slice(at, end));
    index++;
    if (nl < 0) break;
    at = nl + 1;
  }
  return { ...builder.finish(index), totalLines: index };
}
