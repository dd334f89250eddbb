import { toolOutputSummary, toolOutputText } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { astSearchModelText, astSearchSummary } from './render.js';

const astSearch = { toModelText: astSearchModelText, summarize: astSearchSummary };

describe('ast_search renders itself', () => {
  it('shows one line per match, then the summary; people see the first matches', () => {
    const matches = [{ file: 'a.ts', line: 2, col: 0, end_line: 2, text: 'foo()\nbar' }];
    const output = { success: true, status: 'matches', matches, summary: '1 match.', total: 1, truncated: false };
    expect(toolOutputText(astSearch, output)).toBe('a.ts:2:0: foo()\nbar\n1 match.');
    expect(toolOutputSummary(astSearch, output)).toEqual({
      ok: true,
      headline: 'matches: 1 match.',
      details: ['a.ts:2  foo()'],
    });
  });
});
