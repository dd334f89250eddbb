import { ConfigurationError } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createEditorTool, EDITOR_ERROR_CODES, type EditorErrorCode, EditorFailure, handleEditor } from './index.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'one\n' });
});
afterEach(() => ws.cleanup());

describe('limits through core defineLimits', () => {
  it('a bad override throws a ConfigurationError naming the key when the tool is built', () => {
    expect(() => createEditorTool({ workspaceRoot: ws.root, limits: { maxFileBytes: 0 } })).toThrow(
      /editor limits\.maxFileBytes must be a positive integer/,
    );
    expect(() => createEditorTool({ workspaceRoot: ws.root, limits: { fuzzyMaxSpanRatio: -2 } })).toThrow(
      ConfigurationError,
    );
  });
});

describe('typed failures', () => {
  it('error_code is typed by the table; the failure arm is core’s schema over it', async () => {
    const out = await handleEditor(
      { action: 'edit', file_path: 'a.txt', old_string: 'zzz', new_string: 'y' },
      { workspaceRoot: ws.root },
    );
    expect(out.success).toBe(false);
    if (!out.success) {
      expectTypeOf(out.error_code).toEqualTypeOf<EditorErrorCode>();
      expect(EDITOR_ERROR_CODES).toContain(out.error_code);
    }
    expect(EditorFailure.safeParse({ success: false, error: 'x', error_code: 'no_change', extra: 1 }).success).toBe(
      true,
    );
    expect(EditorFailure.safeParse({ success: false, error: 'x', error_code: 'nope' }).success).toBe(false);
  });
});
