import { toolOutputSummary, toolOutputText } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { checkModelText, checkSummary } from './render.js';

const check = { toModelText: checkModelText, summarize: checkSummary };

describe('code_check renders itself', () => {
  it('shows one line per diagnostic, then the summary', () => {
    const diagnostics = [{ file: 'a.py', line: 1, col: 8, severity: 'error', code: 'F401', message: 'unused' }];
    const output = { success: true, status: 'diagnostics', diagnostics, summary: '1 finding.', text: 'a.py:1:8 F401' };
    expect(toolOutputText(check, output)).toBe('a.py:1:8 error F401: unused\n1 finding.');
    expect(toolOutputSummary(check, output)).toEqual({
      ok: true,
      headline: 'diagnostics: 1 finding.',
      details: ['a.py:1:8 F401'],
    });
  });

  it('is a failure when the check did not run, whatever its status says', () => {
    const failed = { success: false, status: 'unavailable', error_code: 'unavailable', error: 'ruff missing' };
    expect(toolOutputSummary(check, failed)).toMatchObject({ ok: false, headline: '[unavailable] ruff missing' });
  });
});
