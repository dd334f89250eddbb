import { createRequire } from 'node:module';
import { makeWorkspace } from '@bough/test-utils';
import { expect, it } from 'vitest';

// Every module listed here is CommonJS, so once loaded it sits in the shared require cache. Vitest gives each test
// file a fresh process, and this file imports nothing else from the package, so the cache starts clean.
const HEAVY =
  /[\\/]node_modules[\\/](typescript|ts-morph|@ts-morph[\\/]common|@ast-grep[\\/]|@astral-sh[\\/]ruff-wasm)/;
const heavyLoaded = () => Object.keys(createRequire(import.meta.url).cache).filter((key) => HEAVY.test(key));

it('importing @bough/check loads neither ruff nor TypeScript; the first check that needs them does', async () => {
  expect(heavyLoaded()).toEqual([]);
  const { handleCodeCheck, createCodeCheckTool } = await import('./index.js');
  // noLib keeps the proof cheap: the compiler is loaded, but the standard library is not parsed.
  const ws = makeWorkspace({
    'a.py': 'import os\n',
    'b.ts': 'export const b = 1;\n',
    'tsconfig.json': '{ "compilerOptions": { "noLib": true } }',
  });
  try {
    createCodeCheckTool({ workspaceRoot: ws.root });
    expect(heavyLoaded()).toEqual([]);
    const result = await handleCodeCheck({}, { workspaceRoot: ws.root });
    expect(result.tool).toBe('ruff+typescript');
    // The probe sees the modules once they are really in use, so the empty lists above mean something.
    const loaded = heavyLoaded().join('\n');
    expect(loaded).toMatch(/ruff-wasm/);
    // The compiler is the one ts-morph bundles (as @bough/nav uses), not a second copy from the typescript package.
    expect(loaded).toMatch(/@ts-morph[\\/]common[\\/]dist[\\/]typescript\.js/);
    expect(loaded).not.toMatch(/node_modules[\\/]typescript[\\/]/);
  } finally {
    ws.cleanup();
  }
});
