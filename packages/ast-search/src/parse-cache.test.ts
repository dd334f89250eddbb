// The parse cache keeps trees (and per-query results) of unchanged files between calls: a repeated query answers the
// same without re-parsing, an edited file alone is read again, the cap bounds what is kept, and a file that became a
// link or another file is never answered from the cache.
import { realpathSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleAstSearch } from './handle-ast-search.js';
import { AstParseCache } from './parse-cache.js';

const FILES: Record<string, string> = {
  'a.py': 'import os\nprint(os.name)\n',
  'b.py': 'import sys\nprint(sys.argv)\n',
  'pkg/c.py': 'def f():\n    print(3)\n',
};

describe('ast_search parse cache', () => {
  let ws: TempWorkspace;
  let cache: AstParseCache;
  beforeEach(() => {
    ws = makeWorkspace(FILES);
    cache = new AstParseCache(64 * 2 ** 20);
  });
  afterEach(() => ws.cleanup());
  const run = (pattern: string, extra: Record<string, unknown> = {}) =>
    handleAstSearch({ pattern, ...extra }, { workspaceRoot: ws.root, cache });
  const where = (result: Awaited<ReturnType<typeof run>>) => result.matches.map((m) => `${m.file}:${m.line}:${m.text}`);

  it('answers a repeated query the same and keeps every parsed file', async () => {
    const first = await run('print($A)');
    expect(where(first)).toEqual(['a.py:2:print(os.name)', 'b.py:2:print(sys.argv)', 'pkg/c.py:2:print(3)']);
    expect(cache.size).toBe(3);
    const held = cache.bytes;
    const again = await run('print($A)');
    expect(again).toEqual(first);
    expect(cache.bytes).toBe(held);
    // A different query on the same trees is answered from them too.
    const imports = await run('import $M');
    expect(where(imports)).toEqual(['a.py:1:import os', 'b.py:1:import sys']);
    expect(cache.size).toBe(3);
  });

  it('says which real paths it holds, whatever their stamp', async () => {
    await run('print($A)');
    const held = join(realpathSync(ws.root), 'pkg', 'c.py');
    expect(cache.has(held)).toBe(true);
    expect(cache.has(join(realpathSync(ws.root), 'missing.py'))).toBe(false);
    cache.delete(held);
    expect(cache.has(held)).toBe(false);
  });

  it('re-reads an edited file alone, even when its size and modification time are put back', async () => {
    await run('print($A)');
    const before = statSync(ws.path('b.py'));
    writeFileSync(ws.path('b.py'), 'import sys\nprint(sys.path)\n'); // same length as before
    utimesSync(ws.path('b.py'), before.atime, before.mtime);
    const after = await run('print($A)');
    expect(where(after)).toEqual(['a.py:2:print(os.name)', 'b.py:2:print(sys.path)', 'pkg/c.py:2:print(3)']);
    // A file replaced by a new one under the same name (another inode) is read again too.
    writeFileSync(ws.path('pkg/c.tmp'), 'def f():\n    print(4)\n');
    renameSync(ws.path('pkg/c.tmp'), ws.path('pkg/c.py'));
    expect(where(await run('print($A)'))).toContain('pkg/c.py:2:print(4)');
  });

  it('never answers from the cache for a file that became a link out or was removed', async () => {
    writeFileSync(`${ws.outside}/b.py`, 'print("OUTSIDE-SECRET-CANARY")\n');
    await run('print($A)');
    rmSync(ws.path('b.py'));
    symlinkSync(`${ws.outside}/b.py`, ws.path('b.py'));
    const linked = await run('print($A)');
    expect(JSON.stringify(linked)).not.toContain('OUTSIDE-SECRET-CANARY');
    expect(where(linked)).toEqual(['a.py:2:print(os.name)', 'pkg/c.py:2:print(3)']);
    rmSync(ws.path('pkg/c.py'));
    expect(where(await run('print($A)'))).toEqual(['a.py:2:print(os.name)']);
  });

  it('keeps what it holds under its cap, and a cap of 0 keeps nothing', async () => {
    const small = new AstParseCache(4096);
    for (let i = 0; i < 20; i++) ws.write(`many/m${i}.py`, `print(${i})\n${'x = 1\n'.repeat(20)}`);
    const result = await handleAstSearch({ pattern: 'print($A)' }, { workspaceRoot: ws.root, cache: small });
    expect(result.total).toBe(23);
    expect(small.size).toBeGreaterThan(0);
    expect(small.size).toBeLessThan(23);
    expect(small.bytes).toBeLessThanOrEqual(4096);
    small.maxBytes = 0;
    expect(small.size).toBe(0);
    expect(small.bytes).toBe(0);
    const off = await handleAstSearch(
      { pattern: 'print($A)' },
      { workspaceRoot: ws.root, limits: { cacheMaxBytes: 0 } },
    );
    expect(off.total).toBe(23);
  });

  it('a larger max_results after a smaller one still returns every match', async () => {
    ws.write('d.py', Array.from({ length: 12 }, (_, i) => `print(${i})`).join('\n'));
    const few = await run('print($A)', { max_results: 2 });
    expect(few.matches).toHaveLength(2);
    const all = await run('print($A)', { max_results: 100 });
    expect(all.matches).toHaveLength(15);
    expect(all.total).toBe(15);
  });
});
