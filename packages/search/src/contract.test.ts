import { ConfigurationError } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createSearchTool, handleSearch, SEARCH_ERROR_CODES, type SearchErrorCode } from './index.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'needle\n' });
});
afterEach(() => ws.cleanup());

describe('limits through core defineLimits', () => {
  it('a bad override throws a ConfigurationError naming the key when the tool is built', () => {
    expect(() => createSearchTool({ workspaceRoot: ws.root, limits: { maxResults: 0 } })).toThrow(
      /search limits\.maxResults must be a positive integer/,
    );
    expect(() => createSearchTool({ workspaceRoot: ws.root, limits: { countLimit: 2.5 } })).toThrow(ConfigurationError);
  });

  it('the description and the schema state the resolved limits', () => {
    const tool = createSearchTool({
      workspaceRoot: ws.root,
      limits: { maxResults: 30, grepResults: 7, maxLineChars: 120, timeoutMs: 9_000 },
    });
    expect(tool.description).toContain('up to 30');
    expect(tool.description).toContain('Default 7 results');
    expect(JSON.stringify(tool.request.toJSONSchema?.() ?? {})).not.toContain('default 50');
  });

  it('the per-action default comes from the limits', async () => {
    const tool = createSearchTool({ workspaceRoot: ws.root, limits: { findResults: 1 } });
    ws.write('b.txt', 'x\n');
    const out = await tool.handler(
      { action: 'find', pattern: '*.txt' },
      { signal: new AbortController().signal, callId: 'c' },
    );
    expect(out).toMatchObject({ success: true, shown: 1, truncated: true });
  });
});

describe('typed failures', () => {
  it('error_code is typed by the table', async () => {
    const out = await handleSearch({ action: 'grep', pattern: '(' }, { workspaceRoot: ws.root });
    expect(out.success).toBe(false);
    if (!out.success) {
      expectTypeOf(out.error_code).toEqualTypeOf<SearchErrorCode>();
      expect(SEARCH_ERROR_CODES).toContain(out.error_code);
    }
  });
});
