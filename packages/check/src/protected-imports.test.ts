import { symlinkSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { DEFAULT_PROTECTED, type ProtectedNamePolicy, Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckCache } from './check-cache.js';
import { handleCodeCheck } from './handle-check.js';
import { SyncFileCache } from './internal/sync-file-cache.js';

// An ordinary file that imports a protected one must not let the compiler read it: the protected file is absent to
// TypeScript, so its text (here the literal types it exports) cannot reach a diagnostic, and no diagnostic points
// into it. SECURITY.md, guarantee 1: no byte of a protected file in any result field.
const policy: ProtectedNamePolicy = { ...DEFAULT_PROTECTED, names: [...DEFAULT_PROTECTED.names, '.bough'] };
const cache = new CheckCache();

const OPEN: ProtectedNamePolicy = { names: [], patterns: [], allow: [] };

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({
    '.env.ts': "export type K = 'TOKEN-ENV-1111';\nexport declare const k: 'TOKEN-ENV-1111';\n",
    '.env.local.ts': "export declare const l: 'TOKEN-LOCAL-2222';\n",
    '.env.d.ts': "declare const ambient: 'TOKEN-AMBIENT-3333';\n",
    '.bough/state.ts': "export type S = 'TOKEN-DIR-4444';\nexport declare const s: 'TOKEN-DIR-4444';\n",
  });
});
afterEach(() => ws.cleanup());

const check = (paths: string[], protectedNames = policy) =>
  handleCodeCheck({ paths, tool: 'typescript' }, { workspaceRoot: ws.root, protectedNames, cache });

/** Checks main.ts under the policy (nothing from the protected files) and with no policy (the case can leak). */
async function expectNothingFrom(main: string, token: RegExp) {
  ws.write('main.ts', main);
  const open = await check(['main.ts'], OPEN);
  expect(JSON.stringify(open), `with nothing protected the case shows the text: ${JSON.stringify(open)}`).toMatch(
    token,
  );
  const r = await check(['main.ts']);
  expect(JSON.stringify(r)).not.toMatch(/TOKEN-/);
  for (const d of r.diagnostics) expect(d.file).toBe('main.ts');
  return r;
}

describe('code_check treats protected files reached through imports as absent', () => {
  it('a named import of a protected file: unresolved, never typed by its text', async () => {
    const r = await expectNothingFrom("import { k } from './.env';\nconsole.log(k.nope);\n", /TOKEN-ENV/);
    expect(r.diagnostics.map((d) => d.code)).toContain('TS2307');
  });

  it('an import of a protected-pattern name and one from a protected directory', async () => {
    const r = await expectNothingFrom(
      "import { l } from './.env.local';\nimport { s } from './.bough/state';\nconsole.log(l.nope, s.nope);\n",
      /TOKEN-LOCAL.*TOKEN-DIR/s,
    );
    expect(r.diagnostics.filter((d) => d.code === 'TS2307')).toHaveLength(2);
  });

  it('a type-only import and an import type expression', async () => {
    await expectNothingFrom(
      "import type { K } from './.env';\nconst n: K = 'x';\nconst m: import('./.bough/state').S = 'y';\nconsole.log(n, m);\n",
      /TOKEN-ENV.*TOKEN-DIR/s,
    );
  });

  it('a triple-slash reference to a protected declaration file', async () => {
    await expectNothingFrom('/// <reference path="./.env.d.ts" />\nconsole.log(ambient.nope);\n', /TOKEN-AMBIENT/);
  });

  it('an import through an ordinary-named link to a protected file', async () => {
    symlinkSync(ws.path('.env.ts'), ws.path('plain.ts'));
    const main = "import { k } from './plain';\nconsole.log(k.nope);\n";
    ws.write('main.ts', main);
    const r = await check(['main.ts']);
    expect(JSON.stringify(r)).not.toMatch(/TOKEN-/);
    for (const d of r.diagnostics) expect(d.file).toBe('main.ts');
  });

  it('a tsconfig.json that extends a protected file', async () => {
    ws.write('.env.json', '{ "compilerOptions": { "noUnusedLocals": true } }');
    ws.write('tsconfig.json', '{ "extends": "./.env.json" }');
    ws.write('main.ts', 'export function f() {\n  const unused = 1;\n}\n');
    const r = await check(['main.ts']);
    // noUnusedLocals (off by default) came only from the protected file, so it is not in force
    expect(r.diagnostics.map((d) => d.code)).not.toContain('TS6133');
  });
});

describe('the compiler library directory inside the workspace', () => {
  // A project that installs the checker has the compiler under its own node_modules. Its library files come from the
  // compiler's bundled texts only: whatever lies on disk in that directory (a planted file, a link out) is never read.
  it('serves library paths from the compiler, never from the files in that directory', async () => {
    ws.write('lib/lib.d.ts', "declare const planted: 'TOKEN-LIB-5555';\n");
    ws.write('lib/extra.d.ts', "declare const leaked: 'TOKEN-LIB-6666';\n");
    symlinkSync(`${ws.outside}/secret.txt`, ws.path('lib/out.d.ts'));
    const workspace = await Workspace.open(ws.root);
    const bundled = new Map([[ws.path('lib/lib.d.ts'), 'interface Array<T> {}\n']]);
    const library = { libDir: ws.path('lib'), library: (p: string) => bundled.get(p) };
    const files = new SyncFileCache(workspace, library, { maxBytes: 1 << 20, maxFiles: 100 });
    const names = ['lib/lib.d.ts', 'lib/extra.d.ts', 'lib/out.d.ts'].map((name) => ws.path(name));
    for (let round = 0; round < 3; round++) {
      for (const name of names) files.readFile(name);
      await files.loadPending();
    }
    expect(names.map((name) => files.readFile(name))).toEqual(['interface Array<T> {}\n', undefined, undefined]);
  });
});
