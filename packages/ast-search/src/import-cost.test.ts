import { createRequire } from 'node:module';
import { makeWorkspace } from '@bough/test-utils';
import { expect, it } from 'vitest';

// @ast-grep/napi and the grammar packages are CommonJS, so once loaded they sit in the shared require cache. Vitest
// gives each test file a fresh process, and this file imports nothing else from the package, so the cache starts clean.
const HEAVY =
  /[\\/]node_modules[\\/](typescript|ts-morph|@ts-morph[\\/]common|@ast-grep[\\/]|@astral-sh[\\/]ruff-wasm)/;
const heavyLoaded = () => Object.keys(createRequire(import.meta.url).cache).filter((key) => HEAVY.test(key));

it('importing @bough/ast-search loads no native module; the first search does', async () => {
  expect(heavyLoaded()).toEqual([]);
  const { handleAstSearch, createAstSearchTool } = await import('./index.js');
  const ws = makeWorkspace({ 'a.py': 'print(1)\n' });
  try {
    createAstSearchTool({ workspaceRoot: ws.root });
    expect(heavyLoaded()).toEqual([]);
    const result = await handleAstSearch({ pattern: 'print($A)' }, { workspaceRoot: ws.root });
    expect(result.status).toBe('matches');
    expect(heavyLoaded().join('\n')).toMatch(/@ast-grep[\\/]napi/);
  } finally {
    ws.cleanup();
  }
});
