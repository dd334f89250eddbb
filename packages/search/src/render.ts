import { detailLines, isRecord, joinLines, plural, type ToolSummaryParts } from '@bough/core';

// How search presents its results (see core's ToolRendering): the lines found for a model, a count for people.

/** The result lines and the note; `No results.` when both are empty. */
export function searchModelText(output: unknown): string | undefined {
  if (!isRecord(output) || typeof output.content !== 'string') return undefined;
  const note = typeof output.note === 'string' && output.note ? `[${output.note}]` : undefined;
  return joinLines([output.content, note]) || 'No results.';
}

/** How many results (and how many are shown when cut), the first lines below. */
export function searchSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isRecord(output) || typeof output.content !== 'string' || typeof output.count !== 'number') return undefined;
  const more = output.truncated ? ` (showing ${output.shown})` : '';
  const results = plural(output.count, 'result');
  return { headline: `${results}${more}`, details: detailLines(output.content) };
}
