import { detailItems, detailLines, joinLines, locationText, type ToolSummaryParts } from '@bough/core';

// How ast_search presents its matches (see core's ToolRendering): one line per match for a model and for people.

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `file:line:col: text` per match, then the summary. */
export function astSearchModelText(output: unknown): string | undefined {
  if (!isObj(output) || !Array.isArray(output.matches)) return undefined;
  const lines = output.matches.filter(isObj).map((m) => `${locationText(m)}: ${String(m.text)}`);
  return joinLines([...lines, str(output.summary)]);
}

/** `status: summary`, the first matches below. */
export function astSearchSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isObj(output) || typeof output.status !== 'string' || typeof output.summary !== 'string') return undefined;
  const headline = `${output.status}: ${output.summary}`.trim();
  const details = Array.isArray(output.matches)
    ? detailItems(output.matches, (m) => `${m.file}:${m.line}  ${String(m.text ?? '').split('\n')[0]}`)
    : detailLines(str(output.text) ?? '');
  return { headline, details };
}
