import { compactText, detailLines, isRecord, joinLines, plural, stringOf, type ToolSummaryParts } from '@bough/core';

// How the editor presents a change (see core's ToolRendering): its message and diff for a model, a summary for people.

/** The change's message and its diff (marked when cut); without a diff, the message. */
export function editorModelText(output: unknown): string | undefined {
  if (!isRecord(output)) return undefined;
  const diff = stringOf(output.diff);
  const message = stringOf(output.message);
  if (diff) return joinLines([message, diff, output.diff_truncated === true ? '[diff cut]' : undefined]);
  if (diff === undefined && !(message !== undefined && 'action' in output)) return undefined;
  return message ?? compactText(output);
}

/** What was written or edited, how often and where, over the changed lines of the diff. */
export function editorSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isRecord(output) || typeof output.diff !== 'string') return undefined;
  const where = stringOf(output.relative) ?? stringOf(output.path);
  const count = typeof output.replacements === 'number' ? output.replacements : undefined;
  const at = typeof output.first_line === 'number' && output.first_line ? ` at line ${output.first_line}` : '';
  const headline = `${output.action === 'write' ? 'wrote' : 'edited'} ${where}${count !== undefined ? `: ${plural(count, 'replacement')}` : ''}${at}`;
  const changed = output.diff.split('\n').filter((line) => /^[-+](?![-+]{2} )/.test(line));
  return { headline, details: detailLines(changed.join('\n'), 8) };
}
