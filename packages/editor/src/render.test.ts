import { toolOutputSummary, toolOutputText } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { editorModelText, editorSummary } from './render.js';

const editor = { toModelText: editorModelText, summarize: editorSummary };

describe('the editor renders itself', () => {
  it('shows a change as its message and diff, and a change without a diff as its message', () => {
    const edit = { success: true, action: 'edit', message: 'Edited a.txt.', diff: '-one\n+two', diff_truncated: false };
    expect(toolOutputText(editor, edit)).toBe('Edited a.txt.\n-one\n+two');
    expect(toolOutputText(editor, { ...edit, diff_truncated: true })).toBe('Edited a.txt.\n-one\n+two\n[diff cut]');
    expect(toolOutputText(editor, { success: true, action: 'mkdir', message: 'Made d.' })).toBe('Made d.');
  });

  it('summarises an edit by file, count and line, over the changed lines', () => {
    const edit = {
      success: true,
      action: 'edit',
      relative: 'a.txt',
      replacements: 1,
      first_line: 4,
      diff: '--- a/a.txt\n+++ b/a.txt\n@@\n-one\n+two',
    };
    expect(toolOutputSummary(editor, edit)).toEqual({
      ok: true,
      headline: 'edited a.txt: 1 replacement at line 4',
      details: ['-one', '+two'],
    });
  });
});
