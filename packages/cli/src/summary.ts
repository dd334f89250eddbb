import type { ToolSummary } from '@bough/core';

/**
 * Renders a tool's summary (core's `toolOutputSummary`: the tool's own, or the generic one) as indented text lines
 * ending in a newline.
 */
export function renderSummary(summary: ToolSummary, indent: string): string {
  const head = `${indent}${summary.ok ? '✓' : '✗'} ${summary.headline}\n`;
  return head + summary.details.map((line) => `${indent}  │ ${line}\n`).join('');
}
