import { chmodSync, symlinkSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReaderTool, handleReader } from './index.js';
import { ReaderResponse } from './schema.js';

type Any = Record<string, unknown> & { results?: { path: string; result: Record<string, unknown> }[] };

describe('reader read_many', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'a.txt': 'alpha\n', 'b.txt': 'beta\ngamma\n', '.env': 'SECRET=1\n' });
  });
  afterEach(() => ws.cleanup());
  const run = async (request: Record<string, unknown>, limits = {}) =>
    (await handleReader({ action: 'read_many', ...request }, { workspaceRoot: ws.root, limits })) as Any;

  it('reads every path on its own: one failing never fails the others', async () => {
    const out = await run({ paths: ['a.txt', 'missing.txt', 'b.txt', '.env', '../ws-evil/secret.txt'] });
    expect(ReaderResponse.safeParse(out).success).toBe(true);
    expect(out).toMatchObject({ success: true, type: 'many', read: 2, failed: 3 });
    const byPath = Object.fromEntries((out.results ?? []).map((entry) => [entry.path, entry.result]));
    expect(byPath['a.txt']).toMatchObject({ success: true, content: '1\talpha' });
    expect(byPath['b.txt']).toMatchObject({ success: true, content: '1\tbeta\n2\tgamma' });
    expect(byPath['missing.txt']).toMatchObject({ success: false, error_code: 'not_found' });
    expect(byPath['.env']).toMatchObject({ success: false, error_code: 'protected_path' });
    expect(byPath['../ws-evil/secret.txt']).toMatchObject({ success: false });
    expect(JSON.stringify(out)).not.toContain('OUTSIDE-SECRET-CANARY');
    expect(out.results?.map((entry) => entry.path)).toEqual([
      'a.txt',
      'missing.txt',
      'b.txt',
      '.env',
      '../ws-evil/secret.txt',
    ]);
  });

  it('applies the window to each file and stops at the byte budget with output_budget', async () => {
    const windowed = await run({ paths: ['b.txt'], offset: 1, limit: 1 });
    expect(windowed.results?.[0]?.result).toMatchObject({ content: '2\tgamma', start_line: 2 });
    const capped = await run({ paths: ['a.txt', 'b.txt'] }, { maxReadManyBytes: 1 });
    const codes = capped.results?.map((entry) => entry.result.error_code ?? 'ok');
    expect(codes?.filter((code) => code === 'output_budget')).toHaveLength(1);
  });

  it('refuses a missing, empty or too long list', async () => {
    expect(await run({})).toMatchObject({ success: false, error_code: 'invalid_request' });
    expect(await run({ paths: [] })).toMatchObject({ success: false, error_code: 'invalid_request' });
    const many = Array.from({ length: 3 }, (_, i) => `f${i}`);
    expect(await run({ paths: many }, { maxReadManyPaths: 2 })).toMatchObject({ error_code: 'invalid_request' });
  });
});

describe('reader stat', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'src/a.py': 'one\ntwo\nthree', 'bin.dat': 'x\0y\n', '.env': 'SECRET=1\n' });
  });
  afterEach(() => ws.cleanup());
  const stat = async (path: string) =>
    (await handleReader({ action: 'stat', path }, { workspaceRoot: ws.root })) as Any;

  it('tells type, size, mtime, mode and the line count of a text file', async () => {
    chmodSync(ws.path('src/a.py'), 0o640);
    const file = await stat('src/a.py');
    expect(ReaderResponse.safeParse(file).success).toBe(true);
    expect(file).toMatchObject({ success: true, type: 'stat', kind: 'file', size_bytes: 13, mode: '0640', lines: 3 });
    expect(Number.isNaN(Date.parse(String(file.mtime)))).toBe(false);
    const dir = await stat('src');
    expect(dir).toMatchObject({ success: true, kind: 'directory', relative: 'src' });
    expect(dir.lines).toBeUndefined();
    expect((await stat('bin.dat')).lines).toBeUndefined();
  });

  it('goes through the gate: outside, protected, missing and final symlinks are refused', async () => {
    symlinkSync(ws.path('src/a.py'), ws.path('link.py'));
    expect(await stat('../ws-evil/secret.txt')).toMatchObject({ success: false });
    expect(await stat(`${ws.outside}/secret.txt`)).toMatchObject({ success: false });
    expect(await stat('.env')).toMatchObject({ success: false, error_code: 'protected_path' });
    expect(await stat('nope')).toMatchObject({ success: false, error_code: 'not_found' });
    expect(await stat('link.py')).toMatchObject({ success: false });
  });

  it('needs a path', async () => {
    const tool = createReaderTool({ workspaceRoot: ws.root });
    const out = await tool.handler({ action: 'stat' } as never, { signal: new AbortController().signal, callId: 'x' });
    expect(out).toMatchObject({ success: false, error_code: 'invalid_request' });
  });
});
