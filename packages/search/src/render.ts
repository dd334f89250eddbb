import { detailLines, joinLines, type ToolSummaryParts } from '@bough/core';

// How search presents its results (see core's ToolRendering): the lines found for a model, a count for people.

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The result lines and the note; `No results.` when both are empty. */
export function searchModelText(output: unknown): string | undefined {
  if (!isObj(output) || typeof output.content !== 'string') return undefined;
  const note = typeof output.note === 'string' && output.note ? `[${output.note}]` : undefined;
  return joinLines([output.content, note]) || 'No results.';
}

/** How many results (and how many are shown when cut), the first lines below. */
export function searchSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isObj(output) || typeof output.content !== 'string' || typeof output.count !== 'number') return undefined;
  const more = output.truncated ? ` (showing ${output.shown})` : '';
  const results = `${output.count} result${output.count === 1 ? '' : 's'}`;
  return { headline: `${results}${more}`, details: detailLines(output.content) };
}
