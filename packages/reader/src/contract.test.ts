import { ConfigurationError } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createReaderTool, handleReader, READER_ERROR_CODES, type ReaderErrorCode, ReaderFailure } from './index.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'one\ntwo\nthree\n' });
});
afterEach(() => ws.cleanup());

describe('limits through core defineLimits', () => {
  it('a bad override throws a ConfigurationError naming the key when the tool is built', () => {
    expect(() => createReaderTool({ workspaceRoot: ws.root, limits: { maxOutputBytes: -1 } })).toThrow(
      /reader limits\.maxOutputBytes must be a positive integer/,
    );
    expect(() => createReaderTool({ workspaceRoot: ws.root, limits: { maxLineChars: 1.5 } })).toThrow(
      ConfigurationError,
    );
    const unknown = { maxLines: 3 } as unknown as { maxLineChars: number };
    expect(() => createReaderTool({ workspaceRoot: ws.root, limits: unknown })).toThrow(/no limit named maxLines/);
  });

  it('the description states the resolved limits', () => {
    expect(createReaderTool({ workspaceRoot: ws.root }).description).toContain('limit defaults to 2,000 lines');
    const tool = createReaderTool({ workspaceRoot: ws.root, limits: { defaultLineLimit: 40, maxReadManyPaths: 7 } });
    expect(tool.description).toContain('limit defaults to 40 lines');
    expect(tool.description).toContain('at most 7');
  });

  it('the resolved default line limit is the one applied', async () => {
    const tool = createReaderTool({ workspaceRoot: ws.root, limits: { defaultLineLimit: 2 } });
    const out = await tool.handler(
      { action: 'read', path: 'a.txt' },
      { signal: new AbortController().signal, callId: 'c' },
    );
    expect(out).toMatchObject({ success: true, end_line: 2, next_offset: 2 });
  });
});

describe('typed failures', () => {
  it('error_code is typed by the table and the failure arm is core’s schema over it', async () => {
    const out = await handleReader({ action: 'read', path: 'missing.txt' }, { workspaceRoot: ws.root });
    expect(out.success).toBe(false);
    if (!out.success) {
      expectTypeOf(out.error_code).toEqualTypeOf<ReaderErrorCode>();
      expect(READER_ERROR_CODES).toContain(out.error_code);
    }
    expect(ReaderFailure.safeParse({ success: false, error: 'x', error_code: 'not_found' }).success).toBe(true);
    expect(ReaderFailure.safeParse({ success: false, error: 'x', error_code: 'no_such_code' }).success).toBe(false);
  });

  it('the response narrows by action and success', async () => {
    const out = await handleReader({ action: 'stat', path: 'a.txt' }, { workspaceRoot: ws.root });
    if (out.success) {
      expectTypeOf(out.kind).toEqualTypeOf<'file' | 'directory'>();
      expect(out.kind).toBe('file');
    } else throw new Error(out.error);
  });
});
