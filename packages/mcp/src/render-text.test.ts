import { describe, expect, it } from 'vitest';
import { renderOutput } from './render-text.js';

describe('renderOutput: the text a model reads', () => {
  it('shows reader rows, and the notice only when it says something', () => {
    const whole = { success: true, type: 'text', content: '1\ta\n2\tb', notice: 'Showing all 2 lines.' };
    expect(renderOutput(whole)).toBe('1\ta\n2\tb');
    const part = { ...whole, notice: 'Showing lines 1-2 of 9. Continue with offset=2.' };
    expect(renderOutput(part)).toBe('1\ta\n2\tb\n[Showing lines 1-2 of 9. Continue with offset=2.]');
  });

  it('shows a failure as its code and message, with extra fields after it', () => {
    const text = renderOutput({ success: false, error: 'Read it first.', error_code: 'not_read', candidates: ['a'] });
    expect(text).toBe('Error (not_read): Read it first.\ncandidates: ["a"]');
  });

  it('shows an edit as its message and diff, a command as its output and status', () => {
    const edit = { success: true, action: 'edit', message: 'Edited a.txt.', diff: '-one\n+two', diff_truncated: false };
    expect(renderOutput(edit)).toBe('Edited a.txt.\n-one\n+two');
    expect(renderOutput({ stdout: 'hi\n', stderr: '', return_code: 0, signal: null, timed_out: false })).toBe('hi');
    const failed = { stdout: '', stderr: 'boom\n', return_code: 2, signal: null, timed_out: false };
    expect(renderOutput(failed)).toBe('[stderr]\nboom\n[exit code 2]');
    expect(renderOutput({ stdout: '', stderr: '', return_code: 0, signal: null, timed_out: false })).toBe(
      '(no output)',
    );
  });

  it('shows grep lines, diagnostics, matches and several files', () => {
    expect(renderOutput({ success: true, content: 'a.ts:1:x', count: 1 })).toBe('a.ts:1:x');
    expect(renderOutput({ success: true, content: '', count: 0 })).toBe('No results.');
    const diagnostics = [{ file: 'a.py', line: 1, col: 8, severity: 'error', code: 'F401', message: 'unused' }];
    expect(renderOutput({ status: 'diagnostics', diagnostics, summary: '1 finding.' })).toBe(
      'a.py:1:8 error F401: unused\n1 finding.',
    );
    const many = {
      success: true,
      results: [
        { path: 'a.txt', result: { success: true, type: 'text', content: '1\tA', notice: 'Showing all 1 lines.' } },
        { path: 'b.txt', result: { success: false, error: 'No such file.', error_code: 'not_found' } },
      ],
    };
    expect(renderOutput(many)).toBe('== a.txt ==\n1\tA\n\n== b.txt ==\nError (not_found): No such file.');
  });
});
