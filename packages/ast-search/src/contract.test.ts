import { ConfigurationError } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  AST_SEARCH_ERROR_CODES,
  type AstSearchErrorCode,
  AstSearchResponse,
  createAstSearchTool,
  handleAstSearch,
} from './index.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.py': 'print(1)\n' });
});
afterEach(() => ws.cleanup());

describe('contract', () => {
  it('a bad limit override throws a ConfigurationError naming the key when the tool is built', () => {
    expect(() => createAstSearchTool({ workspaceRoot: ws.root, limits: { parseConcurrency: 0 } })).toThrow(
      /ast_search limits\.parseConcurrency must be a positive integer/,
    );
    expect(() => createAstSearchTool({ workspaceRoot: ws.root, limits: { cacheMaxBytes: -1 } })).toThrow(
      ConfigurationError,
    );
  });

  it('success on both arms, status kept beside it, error_code typed by the table', async () => {
    const ran = await handleAstSearch({ pattern: 'print($A)', lang: 'python' }, { workspaceRoot: ws.root });
    expect(ran).toMatchObject({ success: true, status: 'matches', total: 1 });
    const refused = await handleAstSearch({ pattern: 'print($A)', path: '../x' }, { workspaceRoot: ws.root });
    expect(refused).toMatchObject({ success: false, status: 'error', error_code: 'outside_workspace' });
    if (!refused.success) {
      expectTypeOf(refused.error_code).toEqualTypeOf<AstSearchErrorCode>();
      expect(refused.error).toBe(refused.summary);
      expect(AST_SEARCH_ERROR_CODES).toContain(refused.error_code);
    }
    expect(AstSearchResponse.safeParse(ran).success).toBe(true);
    expect(AstSearchResponse.safeParse(refused).success).toBe(true);
  });
});
