import { createRequire } from 'node:module';
import { makeWorkspace } from '@bough/test-utils';
import { expect, it } from 'vitest';

// Every module listed here is CommonJS, so once loaded it sits in the shared require cache. Vitest gives each test
// file a fresh process, and this file imports nothing else from the package, so the cache starts clean.
const HEAVY =
  /[\\/]node_modules[\\/](typescript|ts-morph|@ts-morph[\\/]common|@ast-grep[\\/]|@astral-sh[\\/]ruff-wasm)/;
const heavyLoaded = () => Object.keys(createRequire(import.meta.url).cache).filter((key) => HEAVY.test(key));

it('importing @bough/nav loads neither ts-morph nor ast-grep; the first call that needs them does', async () => {
  expect(heavyLoaded()).toEqual([]);
  const { handleCodeNav, createCodeNavTool } = await import('./index.js');
  const ws = makeWorkspace({ 'a.py': 'def f():\n    pass\n', 'b.ts': 'export function g() {}\n' });
  try {
    createCodeNavTool({ workspaceRoot: ws.root });
    expect(heavyLoaded()).toEqual([]);
    expect((await handleCodeNav({ action: 'outline', path: 'a.py' }, { workspaceRoot: ws.root })).success).toBe(true);
    expect(heavyLoaded().join('\n')).toMatch(/@ast-grep[\\/]napi/);
    expect(heavyLoaded().join('\n')).not.toMatch(/ts-morph/);
    expect((await handleCodeNav({ action: 'outline', path: 'b.ts' }, { workspaceRoot: ws.root })).success).toBe(true);
    expect(heavyLoaded().join('\n')).toMatch(/ts-morph/);
  } finally {
    ws.cleanup();
  }
});
