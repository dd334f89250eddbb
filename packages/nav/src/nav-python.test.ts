import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleCodeNav } from './handle-nav.js';
import type { NavInput } from './schema.js';

const SOURCE = [
  'import os',
  '',
  'LIMIT = 10',
  '',
  'class Store:',
  '    def load(self, key, default=None, *args, strict, **kw):',
  '        def inner():',
  '            return LIMIT',
  '        return self.cache.get(key)',
  '',
  '    async def save(self, key: str, value: int = 1):',
  '        pass',
  '',
  'def load(path, *, fast=True):',
  '    store = Store()',
  '    return store.load(path, LIMIT)',
  '',
].join('\n');

describe('code_nav for Python', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'pkg/store.py': SOURCE, 'pkg/use.py': 'from pkg.store import load\nload("x")\n' });
  });
  afterEach(() => ws.cleanup());
  const run = (request: Record<string, unknown>) => handleCodeNav(request as NavInput, { workspaceRoot: ws.root });

  it('outlines classes, functions and methods with ADR-style signatures', async () => {
    const result = await run({ action: 'outline', path: 'pkg/store.py' });
    expect(result.success).toBe(true);
    expect(result.items).toEqual([
      { kind: 'class', name: 'Store', line: 5, col: 0 },
      {
        kind: 'method',
        name: 'Store.load',
        line: 6,
        col: 4,
        signature: '(self, key, default=..., *args, strict, **kw)',
      },
      { kind: 'function', name: 'inner', line: 7, col: 8, signature: '()' },
      { kind: 'method', name: 'Store.save', line: 11, col: 4, signature: '(self, key, value=...)' },
      { kind: 'function', name: 'load', line: 14, col: 0, signature: '(path, *, fast=...)' },
    ]);
  });

  it('finds definitions in a file: functions, methods and simple assignments', async () => {
    const load = await run({ action: 'find_definition', path: 'pkg/store.py', symbol: 'load' });
    expect(load.items.map((i) => [i.kind, i.line])).toEqual([
      ['function', 6],
      ['function', 14],
    ]);
    const limit = await run({ action: 'find_definition', path: 'pkg/store.py', symbol: 'LIMIT' });
    expect(limit.items).toEqual([{ kind: 'assignment', name: 'LIMIT', line: 3, col: 0 }]);
  });

  it('counts annotated assignments as definitions, with or without a value', async () => {
    ws.write('typed.py', 'RATE: float = 0.5\nNAME: str\nclass C:\n    pass\n');
    const rate = await run({ action: 'find_definition', path: 'typed.py', symbol: 'RATE' });
    expect(rate.items).toEqual([{ kind: 'assignment', name: 'RATE', line: 1, col: 0 }]);
    const name = await run({ action: 'find_definition', path: 'typed.py', symbol: 'NAME' });
    expect(name.items).toEqual([{ kind: 'assignment', name: 'NAME', line: 2, col: 0 }]);
    const cls = await run({ action: 'find_definition', path: '.', symbol: 'C' });
    expect(cls.items).toEqual([{ kind: 'class', name: 'C', line: 3, col: 0, file: 'typed.py' }]);
  });

  it('finds syntactic references, including attribute names, but not declarations', async () => {
    const result = await run({ action: 'find_references', path: 'pkg/store.py', symbol: 'load' });
    expect(result.items).toEqual([
      { kind: 'attribute', name: 'load', line: 16, col: 17, signature: 'return store.load(path, LIMIT)' },
    ]);
  });

  it('searches across a directory and labels each item with its file (import names are not references)', async () => {
    const result = await run({ action: 'find_references', path: 'pkg', symbol: 'load' });
    expect(result.items.map((i) => `${i.file}:${i.line}`)).toEqual(['pkg/store.py:16', 'pkg/use.py:2']);
  });

  it('returns an empty list for an absent symbol and requires symbol for lookups', async () => {
    expect(await run({ action: 'find_definition', path: 'pkg/store.py', symbol: 'nope' })).toEqual({
      success: true,
      items: [],
    });
    const missing = await run({ action: 'find_references', path: 'pkg/store.py' });
    expect(missing).toMatchObject({ success: false, error_code: 'invalid_request' });
    expect(missing.error).toContain('find_references');
  });

  it('reports a syntax error instead of a partial outline', async () => {
    ws.write('bad.py', 'def broken(:\n    pass\n');
    const result = await run({ action: 'outline', path: 'bad.py' });
    expect(result).toMatchObject({ success: false, error_code: 'syntax_error' });
    expect(result.error).toContain('line 1');
  });
});
