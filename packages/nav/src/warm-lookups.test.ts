import { mkdirSync, rmSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { getLibFiles, ts } from '@ts-morph/common';
import { afterEach, describe, expect, it } from 'vitest';
import { handleCodeNav } from './handle-nav.js';
import { stampsOf } from './internal/tree-snapshot.js';
import { indexedDeclarationFinder, publicDeclarationFinder } from './internal/ts-declarations.js';
import { TsProject } from './internal/ts-project.js';
import { leanReferenceFinder, publicReferenceFinder } from './internal/ts-references.js';
import { resolveNavLimits } from './limits.js';
import { NavCache } from './nav-cache.js';

/** Declarations and uses of every shape the two lookups must agree on. */
const CORPUS: Record<string, string> = {
  'tsconfig.json':
    '{ "compilerOptions": { "strict": true, "module": "NodeNext", "jsx": "preserve", "allowJs": true } }',
  'src/lib.ts': [
    'export function coreUtil(v: number): number { return v + 1; }',
    'export function overloaded(a: string): string;',
    'export function overloaded(a: number): number;',
    'export function overloaded(a: unknown) { return a; }',
    'export default function defaultFn() { return coreUtil(1); }',
    'export class Widget {',
    '  #secret = 1;',
    '  constructor(public size: number) {}',
    '  area(): number { return this.size + this.#secret; }',
    '  get twice() { return this.area() * 2; }',
    '  static make() { return new Widget(1); }',
    '}',
    'export interface Shape { area(): number }',
    'export interface Shape { label?: string }',
    'export namespace NS { export const inner = coreUtil(2); }',
    'export enum Color { Red, Green }',
    "export type Alias = { 'quoted-key': number; plain: string };",
    "export const table = { 'str': 1, ['computed']: 2, plain: 3, 42: 'n' };",
    'export const area = (s: Shape) => s.area();',
    '',
  ].join('\n'),
  'src/barrel.ts': [
    "export * from './lib.js';",
    "export { coreUtil as renamedUtil } from './lib.js';",
    "export { default as defaultAgain } from './lib.js';",
    '',
  ].join('\n'),
  'src/use.ts': [
    "import defaultFn, { coreUtil, Widget, type Shape, NS, Color, table } from './lib.js';",
    "import { renamedUtil, coreUtil as cu, defaultAgain } from './barrel.js';",
    "import * as L from './lib.js';",
    'const w = new Widget(2);',
    'export const all = [w.area(), w.twice, L.coreUtil(1), cu(2), renamedUtil(3), defaultFn(), defaultAgain()];',
    'export const more = [NS.inner, Color.Red, table.plain, table.str, table.computed, Widget.make()];',
    'const s: Shape = { area: () => 1, label: "x" };',
    'const { plain } = table;',
    'export { s, plain };',
    '',
  ].join('\n'),
  // Names spelled with escapes: the plain spelling appears only in the file that uses them.
  'src/escaped.ts': 'export const \\u0065scaped = 1;\nexport const obj = { \'q\\u0075oted\': 1, "\\x6Bey": 2 };\n',
  'src/use-escaped.ts':
    "import { escaped, obj } from './escaped.js';\nexport const z = [escaped, obj.quoted, obj.key];\n",
  'src/view.tsx': "import { coreUtil } from './lib.js';\nexport function View() { return <div>{coreUtil(1)}</div>; }\n",
  'js/common.js': [
    'exports.jsHelper = function () { return 1; };',
    'module.exports.other = 2;',
    "const { jsHelper } = require('./common');",
    'jsHelper();',
    '',
  ].join('\n'),
  'js/script.js': 'function globalFn() { return 1; }\nglobalFn();\nvar shared = globalFn();\n',
  'js/script2.js': 'shared = globalFn() + 1;\n',
};

const limits = resolveNavLimits({ maxItems: 100_000 });

async function project(root: string, lean: boolean): Promise<TsProject> {
  const built = lean
    ? new TsProject(ts, root, getLibFiles())
    : new TsProject(ts, root, getLibFiles(), {
        declarations: publicDeclarationFinder,
        references: publicReferenceFinder,
      });
  await built.refresh(ts, await Workspace.open(root), limits);
  return built;
}

describe('lookups built on compiler internals', () => {
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());

  it('answer exactly like navigate-to plus findReferences, for every name in a varied project', async () => {
    ws = makeWorkspace(CORPUS);
    const [lean, plain] = await Promise.all([project(ws.root, true), project(ws.root, false)]);
    const names = new Set<string>(['NS.inner', 'quoted-key', '42', '#secret', 'default', 'Widget.make', 'wid']);
    for (const text of Object.values(CORPUS)) for (const m of text.matchAll(/#?[A-Za-z_$][\w$]*/g)) names.add(m[0]);
    let nonEmpty = 0;
    for (const name of names) {
      const refs = lean.references(name, 200);
      expect(refs, name).toEqual(plain.references(name, 200));
      expect(lean.definitions(name, 200), name).toEqual(plain.definitions(name, 200));
      if (refs.length > 0) nonEmpty++;
    }
    // The corpus really exercises the search: most names have references.
    expect(nonEmpty).toBeGreaterThan(30);
    expect(lean.references('coreUtil', 200).map((i) => `${i.kind} ${i.file}:${i.line}`)).toContain(
      'definition src/lib.ts:1',
    );
  });

  it('fall back to the public API when the TypeScript build lacks the internals', () => {
    expect(leanReferenceFinder({} as typeof ts)).toBe(publicReferenceFinder);
    expect(indexedDeclarationFinder({} as typeof ts)).toBe(publicDeclarationFinder);
  });
});

describe('warm answers after changes equal a cold computation', () => {
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());

  const ask = (cache: NavCache, symbol: string, path = '.') =>
    handleCodeNav({ action: 'find_references', path, symbol }, { workspaceRoot: ws.root, cache, limits });
  const define = (cache: NavCache, symbol: string) =>
    handleCodeNav({ action: 'find_definition', path: '.', symbol }, { workspaceRoot: ws.root, cache, limits });

  /** Asks the warm cache and a brand-new one the same questions and expects identical responses. */
  async function expectSameAsCold(warm: NavCache, symbols: readonly string[]) {
    for (const symbol of symbols) {
      const cold = new NavCache();
      expect(await ask(warm, symbol), symbol).toEqual(await ask(cold, symbol));
      expect(await define(warm, symbol), symbol).toEqual(await define(cold, symbol));
      expect(await ask(warm, symbol, 'src/use.ts'), symbol).toEqual(await ask(new NavCache(), symbol, 'src/use.ts'));
    }
  }
  const lines = async (cache: NavCache, symbol: string) =>
    (await ask(cache, symbol)).items.map((i) => `${i.kind} ${i.file}:${i.line}`);

  it('through edits that add and remove references, added and deleted files, and a changed re-export', async () => {
    ws = makeWorkspace(CORPUS);
    const warm = new NavCache();
    const symbols = [
      'coreUtil',
      'renamedUtil',
      'Widget',
      'area',
      'defaultFn',
      'jsHelper',
      'globalFn',
      'extra',
      'later',
    ];
    await expectSameAsCold(warm, symbols);
    const before = await lines(warm, 'coreUtil');

    // An edit that adds a reference.
    ws.write(
      'src/view.tsx',
      "import { coreUtil } from './lib.js';\nexport const View = () => coreUtil(coreUtil(1));\n",
    );
    await expectSameAsCold(warm, symbols);
    expect((await lines(warm, 'coreUtil')).filter((l) => l.includes('view.tsx'))).toEqual([
      'reference src/view.tsx:1',
      'reference src/view.tsx:2',
      'reference src/view.tsx:2',
    ]);

    // An edit that removes references (the file no longer imports the symbol at all).
    ws.write('src/view.tsx', 'export const View = () => 1;\n');
    await expectSameAsCold(warm, symbols);
    expect((await lines(warm, 'coreUtil')).some((l) => l.includes('view.tsx'))).toBe(false);

    // A file added between calls, in a new directory, that declares and uses names.
    mkdirSync(ws.path('src/extra'));
    ws.write('src/extra/more.ts', "import { later } from './later.js';\nexport function extra() { return later; }\n");
    ws.write('src/extra/uses.ts', "import { extra } from './more.js';\nimport { coreUtil } from '../lib.js';\n");
    await expectSameAsCold(warm, symbols);
    expect(await lines(warm, 'extra')).toEqual(['definition src/extra/more.ts:2', 'reference src/extra/uses.ts:1']);
    // The import of a module that does not exist yet declares a name of its own …
    expect(await lines(warm, 'later')).toEqual(['definition src/extra/more.ts:1', 'reference src/extra/more.ts:2']);
    // … and names the module's export once the file appears (module resolutions are not kept across that).
    ws.write('src/extra/later.ts', 'export const later = 1;\n');
    await expectSameAsCold(warm, symbols);
    expect(await lines(warm, 'later')).toEqual([
      'definition src/extra/later.ts:1',
      'reference src/extra/more.ts:1',
      'reference src/extra/more.ts:2',
    ]);

    // A changed re-export: the barrel stops re-exporting, without the symbol's name in the edited text.
    ws.write('src/barrel.ts', 'export {};\n');
    await expectSameAsCold(warm, symbols);
    expect((await lines(warm, 'coreUtil')).some((l) => l.includes('use.ts:2'))).toBe(false);
    ws.write('src/barrel.ts', CORPUS['src/barrel.ts']!);
    await expectSameAsCold(warm, symbols);

    // A file deleted between calls.
    rmSync(ws.path('src/extra/uses.ts'));
    await expectSameAsCold(warm, symbols);
    expect(await lines(warm, 'extra')).toEqual(['definition src/extra/more.ts:2']);
    rmSync(ws.path('src/extra/later.ts'));
    await expectSameAsCold(warm, symbols);
    expect(await lines(warm, 'later')).toEqual(['definition src/extra/more.ts:1', 'reference src/extra/more.ts:2']);
    rmSync(ws.path('src/extra'), { recursive: true });
    rmSync(ws.path('src/view.tsx'));
    await expectSameAsCold(warm, symbols);
    expect(await lines(warm, 'coreUtil')).toEqual(before.filter((l) => !l.includes('view.tsx')));
  });
});

describe('stampsOf', () => {
  it('fingerprints files, directories and missing paths like stampOf', () => {
    const ws = makeWorkspace({ 'a.ts': 'x' });
    try {
      const [file, dir, missing] = stampsOf([ws.path('a.ts'), ws.root, ws.path('nope')]);
      expect(file).toMatch(/^f:1:/);
      expect(dir).toMatch(/^d:/);
      expect(missing).toBe('absent');
    } finally {
      ws.cleanup();
    }
  });
});
