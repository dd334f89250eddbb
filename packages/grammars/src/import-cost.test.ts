import { createRequire } from 'node:module';
import { expect, it } from 'vitest';

// @ast-grep/napi and the grammar packages are CommonJS, so once loaded they sit in the shared require cache. Vitest
// gives each test file a fresh process, and this file imports nothing else from the package, so the cache starts clean.
const HEAVY = /[\\/]node_modules[\\/]@ast-grep[\\/]/;
const heavyLoaded = () => Object.keys(createRequire(import.meta.url).cache).filter((key) => HEAVY.test(key));

it('importing @bough/grammars loads nothing native; loadAstGrep() does', async () => {
  expect(heavyLoaded()).toEqual([]);
  const { loadAstGrep } = await import('./index.js');
  expect(heavyLoaded()).toEqual([]);
  await loadAstGrep();
  const loaded = heavyLoaded().join('\n');
  expect(loaded).toMatch(/@ast-grep[\\/]napi/);
  expect(loaded).toMatch(/@ast-grep[\\/]lang-python/);
});
