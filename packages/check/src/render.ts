import { detailLines, isRecord, joinLines, locationText, stringOf, type ToolSummaryParts } from '@bough/core';

// How code_check presents a check (see core's ToolRendering): one line per diagnostic for a model, status for people.

/** `file:line:col severity code: message` per diagnostic, then the summary. */
export function checkModelText(output: unknown): string | undefined {
  if (!isRecord(output) || !Array.isArray(output.diagnostics)) return undefined;
  const lines = output.diagnostics.filter(isRecord).map((d) => {
    const code = stringOf(d.code) ? ` ${stringOf(d.code)}` : '';
    return `${locationText(d)} ${String(d.severity)}${code}: ${String(d.message)}`;
  });
  return joinLines([...lines, stringOf(output.summary)]);
}

/** `status: summary`, the first lines of the text rendering below. */
export function checkSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isRecord(output) || typeof output.status !== 'string' || typeof output.summary !== 'string') return undefined;
  const headline = `${output.status}: ${output.summary}`.trim();
  return { headline, details: detailLines(stringOf(output.text) ?? '') };
}
