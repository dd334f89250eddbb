import {
  detailItems,
  detailLines,
  isRecord,
  joinLines,
  locationText,
  stringOf,
  type ToolSummaryParts,
} from '@bough/core';

// How ast_search presents its matches (see core's ToolRendering): one line per match for a model and for people.

/** `file:line:col: text` per match, then the summary. */
export function astSearchModelText(output: unknown): string | undefined {
  if (!isRecord(output) || !Array.isArray(output.matches)) return undefined;
  const lines = output.matches.filter(isRecord).map((m) => `${locationText(m)}: ${String(m.text)}`);
  return joinLines([...lines, stringOf(output.summary)]);
}

/** `status: summary`, the first matches below. */
export function astSearchSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isRecord(output) || typeof output.status !== 'string' || typeof output.summary !== 'string') return undefined;
  const headline = `${output.status}: ${output.summary}`.trim();
  const details = Array.isArray(output.matches)
    ? detailItems(output.matches, (m) => `${m.file}:${m.line}  ${String(m.text ?? '').split('\n')[0]}`)
    : detailLines(stringOf(output.text) ?? '');
  return { headline, details };
}
