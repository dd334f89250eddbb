import { ConfigurationError } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  CODE_CHECK_ERROR_CODES,
  type CodeCheckErrorCode,
  CodeCheckResponse,
  createCodeCheckTool,
  handleCodeCheck,
} from './index.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.py': 'x = 1\n' });
});
afterEach(() => ws.cleanup());

describe('contract', () => {
  it('a bad limit override throws a ConfigurationError naming the key when the tool is built', () => {
    expect(() => createCodeCheckTool({ workspaceRoot: ws.root, limits: { maxFiles: -1 } })).toThrow(
      /code_check limits\.maxFiles must be a positive integer/,
    );
    expect(() => createCodeCheckTool({ workspaceRoot: ws.root, limits: { maxFileBytes: 0.5 } })).toThrow(
      ConfigurationError,
    );
  });

  it('success on both arms, status kept beside it, error_code typed by the table', async () => {
    const ran = await handleCodeCheck({ paths: ['a.py'] }, { workspaceRoot: ws.root });
    expect(ran).toMatchObject({ success: true, status: 'ok' });
    const refused = await handleCodeCheck({ paths: ['../outside.py'] }, { workspaceRoot: ws.root });
    expect(refused).toMatchObject({ success: false, status: 'error', error_code: 'outside_workspace' });
    if (!refused.success) {
      expectTypeOf(refused.error_code).toEqualTypeOf<CodeCheckErrorCode>();
      expect(refused.error).toBe(refused.summary);
      expect(CODE_CHECK_ERROR_CODES).toContain(refused.error_code);
    }
    expect(CodeCheckResponse.safeParse(ran).success).toBe(true);
    expect(CodeCheckResponse.safeParse(refused).success).toBe(true);
  });
});
