import type { WindowResult } from './row-builder.js';

/** One line telling a model what it is looking at and how to continue. */
export function windowNotice(
  window: WindowResult,
  offset: number,
  totalLines: number | undefined,
  maxLineChars: number,
): string {
  const total = totalLines === undefined ? 'an unknown number of' : String(totalLines);
  const parts: string[] = [];
  if (window.rows.length === 0) {
    parts.push(
      totalLines === 0 ? 'The file is empty.' : `Offset ${offset} is past the end; the content has ${total} lines.`,
    );
  } else {
    const whole = window.startLine === 1 && window.nextOffset === undefined;
    parts.push(
      whole
        ? `Showing all ${window.rows.length} lines.`
        : `Showing lines ${window.startLine}-${window.endLine} of ${total}.`,
    );
    if (window.nextOffset !== undefined) {
      parts.push(
        `${window.cappedByBytes ? 'Output size limit reached; c' : 'C'}ontinue with offset=${window.nextOffset}.`,
      );
    }
  }
  if (window.cutLines > 0) {
    parts.push(`${window.cutLines} line(s) longer than ${maxLineChars} characters were cut (marked in the row).`);
  }
  return parts.join(' ');
}
