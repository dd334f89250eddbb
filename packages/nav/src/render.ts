import { detailItems, joinLines, locationText, type ToolSummaryParts } from '@bough/core';

// How code_nav presents what it found (see core's ToolRendering): one line per item for a model and for people.

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `file:line:col kind name signature` per item, a mark when results were cut, and the note. */
export function navModelText(output: unknown): string | undefined {
  if (!isObj(output) || !Array.isArray(output.items)) return undefined;
  const lines = output.items.filter(isObj).map((item) => {
    const signature = str(item.signature) ? ` ${str(item.signature)}` : '';
    return `${locationText(item)} ${String(item.kind)} ${String(item.name)}${signature}`;
  });
  if (lines.length === 0 && !str(output.note)) lines.push('No results.');
  return joinLines([...lines, output.truncated === true ? '[more results were cut]' : undefined, str(output.note)]);
}

/** How many items were found, the first few below. */
export function navSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isObj(output) || !Array.isArray(output.items)) return undefined;
  const count = output.items.length;
  const details = detailItems(output.items, (i) =>
    `${i.file ? `${i.file}:` : ''}${i.line}  ${i.kind} ${i.name}  ${String(i.signature ?? '')}`.trim(),
  );
  return { headline: `${count} item${count === 1 ? '' : 's'} found`, details };
}
