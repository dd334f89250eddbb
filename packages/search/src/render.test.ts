import { toolOutputSummary, toolOutputText } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { searchModelText, searchSummary } from './render.js';

const search = { toModelText: searchModelText, summarize: searchSummary };

describe('search renders itself', () => {
  it('shows the lines found, the note, or that nothing was found', () => {
    expect(toolOutputText(search, { success: true, content: 'a.ts:1:x', count: 1 })).toBe('a.ts:1:x');
    expect(toolOutputText(search, { success: true, content: '', count: 0 })).toBe('No results.');
    expect(toolOutputText(search, { success: true, content: '', count: 0, note: 'Try x.' })).toBe('[Try x.]');
  });

  it('summarises by count, saying how many are shown when cut', () => {
    const cut = { success: true, content: 'a\nb', count: 9, shown: 2, truncated: true };
    expect(toolOutputSummary(search, cut)).toEqual({
      ok: true,
      headline: '9 results (showing 2)',
      details: ['a', 'b'],
    });
  });
});
