import { detailLines, joinLines, locationText, type ToolSummaryParts } from '@bough/core';

// How code_check presents a check (see core's ToolRendering): one line per diagnostic for a model, status for people.

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `file:line:col severity code: message` per diagnostic, then the summary. */
export function checkModelText(output: unknown): string | undefined {
  if (!isObj(output) || !Array.isArray(output.diagnostics)) return undefined;
  const lines = output.diagnostics.filter(isObj).map((d) => {
    const code = str(d.code) ? ` ${str(d.code)}` : '';
    return `${locationText(d)} ${String(d.severity)}${code}: ${String(d.message)}`;
  });
  return joinLines([...lines, str(output.summary)]);
}

/** `status: summary`, the first lines of the text rendering below. */
export function checkSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isObj(output) || typeof output.status !== 'string' || typeof output.summary !== 'string') return undefined;
  const headline = `${output.status}: ${output.summary}`.trim();
  return { headline, details: detailLines(str(output.text) ?? '') };
}
