import { toolOutputSummary, toolOutputText } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { navModelText, navSummary } from './render.js';

const nav = { toModelText: navModelText, summarize: navSummary };

describe('code_nav renders itself', () => {
  it('shows one line per item, a mark when cut, or that nothing was found', () => {
    const items = [{ file: 'a.ts', line: 3, col: 1, kind: 'function', name: 'f', signature: '()' }];
    expect(toolOutputText(nav, { success: true, items, truncated: true })).toBe(
      'a.ts:3:1 function f ()\n[more results were cut]',
    );
    expect(toolOutputText(nav, { success: true, items: [] })).toBe('No results.');
  });

  it('never lists a long result whole for people', () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ kind: 'ref', name: `n${i}`, line: i }));
    const summary = toolOutputSummary(nav, { success: true, items });
    expect(summary.headline).toBe('50 items found');
    expect(summary.details).toHaveLength(7);
    expect(summary.details.at(-1)).toBe('… 44 more');
  });
});
