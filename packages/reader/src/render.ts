import {
  compactText,
  detailLines,
  isRecord,
  joinLines,
  stringOf,
  type ToolSummaryParts,
  toolOutputText,
  type UnknownRecord,
} from '@bough/core';

// The reader's own presentation of its outputs (see core's ToolRendering): what a model reads, and the CLI's summary.

/** A window notice that only says the whole file is shown adds nothing to the rows themselves. */
const SAYS_NOTHING = /^Showing all \d+ lines\.$/;

/** The stat fields a model reads, in this order (`relative` shown as `path`). */
const STAT_FIELDS = ['relative', 'type', 'size_bytes', 'lines', 'mtime', 'mode', 'link_target'];

function rowsText(output: UnknownRecord): string {
  const notice = stringOf(output.notice);
  return joinLines([stringOf(output.content), notice && !SAYS_NOTHING.test(notice) ? `[${notice}]` : undefined]);
}

function statText(output: UnknownRecord): string {
  return STAT_FIELDS.filter((key) => output[key] !== undefined)
    .map((key) => `${key === 'relative' ? 'path' : key}: ${compactText(output[key])}`)
    .join('\n');
}

/** Each file of a `many` read under its own `== path ==` line, failures included. */
function manyText(results: readonly unknown[]): string {
  return results
    .map((entry) => {
      if (!isRecord(entry)) return compactText(entry);
      const inner = isRecord(entry.result) ? entry.result : entry;
      const name = stringOf(entry.path) ?? stringOf(inner.relative) ?? '?';
      return `== ${name} ==\n${toolOutputText(READER_RENDERING, inner)}`;
    })
    .join('\n\n');
}

/** The text a model reads for a reader output: numbered rows, a listing, stat fields, or each file of a many-read. */
export function readerModelText(output: unknown): string | undefined {
  if (!isRecord(output)) return undefined;
  if (Array.isArray(output.results)) return manyText(output.results);
  if ((output.type === 'text' || output.type === 'directory') && typeof output.content === 'string') {
    return rowsText(output);
  }
  if (typeof output.mtime === 'string' && typeof output.type === 'string') return statText(output);
  if (typeof output.content === 'string') {
    return (
      joinLines([output.content, stringOf(output.note) ? `[${stringOf(output.note)}]` : undefined]) || 'No results.'
    );
  }
  return undefined;
}

/** A read window's headline (path and line range) over its first rows; other shapes use the generic summary. */
export function readerSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isRecord(output) || output.type !== 'text' || typeof output.content !== 'string') return undefined;
  if (typeof output.total_lines !== 'number') return undefined;
  const where = stringOf(output.relative) ?? stringOf(output.path);
  const headline = `${where}: lines ${output.start_line}–${output.end_line} of ${output.total_lines}`;
  return { headline, details: detailLines(output.content) };
}

const READER_RENDERING = { toModelText: readerModelText };
