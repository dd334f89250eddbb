import { clipLine, type Tool, type ToolSummary, toolOutputSummary } from '@bough/core';

/** A short readable rendering of one tool result: a headline and a few detail lines (never the whole JSON). */
export type Summary = ToolSummary;

/** Cuts text to `max` characters with a marker saying how much was left out. */
export const clip = clipLine;

/** Summarises a tool output for people: the tool's own summary (see core's `ToolRendering`), or the generic one. */
export function summarize(tool: Tool | undefined, output: unknown): Summary {
  return toolOutputSummary(tool, output);
}

/** Renders a summary as indented text lines ending in a newline. */
export function renderSummary(summary: Summary, indent: string): string {
  const head = `${indent}${summary.ok ? '✓' : '✗'} ${summary.headline}\n`;
  return head + summary.details.map((line) => `${indent}  │ ${line}\n`).join('');
}
