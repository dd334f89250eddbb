import { detailItems, isRecord, joinLines, locationText, plural, stringOf, type ToolSummaryParts } from '@bough/core';

// How code_nav presents what it found (see core's ToolRendering): one line per item for a model and for people.

/** `file:line:col kind name signature` per item, a mark when results were cut, and the note. */
export function navModelText(output: unknown): string | undefined {
  if (!isRecord(output) || !Array.isArray(output.items)) return undefined;
  const lines = output.items.filter(isRecord).map((item) => {
    const signature = stringOf(item.signature) ? ` ${stringOf(item.signature)}` : '';
    return `${locationText(item)} ${String(item.kind)} ${String(item.name)}${signature}`;
  });
  if (lines.length === 0 && !stringOf(output.note)) lines.push('No results.');
  return joinLines([
    ...lines,
    output.truncated === true ? '[more results were cut]' : undefined,
    stringOf(output.note),
  ]);
}

/** How many items were found, the first few below. */
export function navSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isRecord(output) || !Array.isArray(output.items)) return undefined;
  const count = output.items.length;
  const details = detailItems(output.items, (i) =>
    `${i.file ? `${i.file}:` : ''}${i.line}  ${i.kind} ${i.name}  ${String(i.signature ?? '')}`.trim(),
  );
  return { headline: `${plural(count, 'item')} found`, details };
}
