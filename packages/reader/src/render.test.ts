import { toolOutputSummary, toolOutputText } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { readerModelText, readerSummary } from './render.js';

const reader = { toModelText: readerModelText, summarize: readerSummary };

describe('the reader renders itself', () => {
  it('shows rows, and the notice only when it says something', () => {
    const whole = { success: true, type: 'text', content: '1\ta\n2\tb', notice: 'Showing all 2 lines.' };
    expect(toolOutputText(reader, whole)).toBe('1\ta\n2\tb');
    const part = { ...whole, notice: 'Showing lines 1-2 of 9. Continue with offset=2.' };
    expect(toolOutputText(reader, part)).toBe('1\ta\n2\tb\n[Showing lines 1-2 of 9. Continue with offset=2.]');
  });

  it('shows several files, each under its path, failures included', () => {
    const many = {
      success: true,
      results: [
        { path: 'a.txt', result: { success: true, type: 'text', content: '1\tA', notice: 'Showing all 1 lines.' } },
        { path: 'b.txt', result: { success: false, error: 'No such file.', error_code: 'not_found' } },
      ],
    };
    expect(toolOutputText(reader, many)).toBe('== a.txt ==\n1\tA\n\n== b.txt ==\nError (not_found): No such file.');
  });

  it('shows stat fields, and summarises a window by its line range', () => {
    const stat = { success: true, type: 'stat', relative: 'a', size_bytes: 3, mtime: 't', mode: '0644' };
    expect(toolOutputText(reader, stat)).toBe('path: a\ntype: stat\nsize_bytes: 3\nmtime: t\nmode: 0644');
    const window = { success: true, type: 'text', relative: 'a.txt', content: '1\ta', start_line: 1, end_line: 1 };
    expect(toolOutputSummary(reader, { ...window, total_lines: 1 })).toEqual({
      ok: true,
      headline: 'a.txt: lines 1–1 of 1',
      details: ['1  a'],
    });
  });
});
