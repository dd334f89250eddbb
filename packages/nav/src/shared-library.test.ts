import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { getLibFiles, ts } from '@ts-morph/common';
import { afterEach, describe, expect, it } from 'vitest';
import { retainedLibrarySets } from './internal/library-registry.js';
import { TsProject } from './internal/ts-project.js';
import { DEFAULT_NAV_LIMITS, SHARED_LIBRARY_SETTINGS } from './limits.js';
import { NavCache } from './nav-cache.js';

type TS = typeof ts;

// The parsed standard library is shared per compiler object, so each test builds its own copy of the compiler module:
// what one test parsed (or evicted) is then invisible to the others.
function compiler(caseSensitive: boolean): { t: TS; disposed: () => number; parsed: () => number } {
  const t = { ...ts } as TS;
  let disposed = 0;
  let parsed = 0;
  // Counts the library files parsed and handed to the shared store (the registry's `externalCache`).
  type Store = { setDocument(...args: unknown[]): void };
  const internal = (ts as unknown as { createDocumentRegistryInternal(...args: unknown[]): unknown })
    .createDocumentRegistryInternal;
  (t as unknown as { createDocumentRegistryInternal: typeof internal }).createDocumentRegistryInternal = (
    ...args: unknown[]
  ) => {
    const store = args[3] as Store;
    const counted: Store = {
      ...store,
      setDocument: (...rest) => {
        parsed++;
        store.setDocument(...rest);
      },
    };
    return internal(args[0], args[1], args[2], counted);
  };
  (t as { sys: TS['sys'] }).sys = { ...ts.sys, useCaseSensitiveFileNames: caseSensitive };
  // A library folder with capitals, as on macOS (/Users/…): a case-insensitive compiler lower-cases its paths.
  (t as { getDefaultLibFilePath: TS['getDefaultLibFilePath'] }).getDefaultLibFilePath = (options) =>
    `/Users/Me/lib/${ts.getDefaultLibFileName(options)}`;
  (t as { createLanguageService: TS['createLanguageService'] }).createLanguageService = (...args) => {
    const service = ts.createLanguageService(...args);
    const dispose = service.dispose.bind(service);
    service.dispose = () => {
      disposed++;
      dispose();
    };
    return service;
  };
  return { t, disposed: () => disposed, parsed: () => parsed };
}

const BOX = 'export class Box { size(): number { return 1; } }\nexport const s = [new Box()].find((b) => b.size());\n';

let ws: TempWorkspace;
afterEach(() => ws?.cleanup());

/** Writes the tsconfig.json with a later modification time than any before, so the project sees every rewrite. */
let tick = 1_000_000;
function configure(compilerOptions: object): void {
  const file = join(ws.root, 'tsconfig.json');
  writeFileSync(file, JSON.stringify({ compilerOptions }));
  tick += 10;
  utimesSync(file, tick, tick);
}

async function lines(project: TsProject, t: TS): Promise<string[]> {
  await project.refresh(t, await Workspace.open(ws.root), DEFAULT_NAV_LIMITS);
  return project.references('size', 100).map((item) => `${item.kind} ${item.line}`);
}

describe.each([true, false])(
  'a tsconfig.json whose lib changes mid-session (case-sensitive file names: %s)',
  (sensitive) => {
    it('keeps answering, each time with the library in force', async () => {
      ws = makeWorkspace({ 'box.ts': BOX });
      const { t } = compiler(sensitive);
      const project = new TsProject(t, ws.root, getLibFiles());
      const withFind = ['definition 1', 'reference 2'];
      configure({ lib: ['es2015'] });
      expect(await lines(project, t)).toEqual(withFind);
      configure({ lib: ['es5'] }); // Array.prototype.find is ES2015: the call is no longer typed
      expect(await lines(project, t)).toEqual(['definition 1']);
      configure({ lib: ['es2020'] });
      expect(await lines(project, t)).toEqual(withFind);
      configure({ lib: ['es5'], target: 'es5' }); // a new settings key as well
      expect(await lines(project, t)).toEqual(['definition 1']);
    });
  },
);

describe('the shared standard library', () => {
  it(`keeps the parsed library of at most ${SHARED_LIBRARY_SETTINGS} settings sets, however many projects differ`, async () => {
    ws = makeWorkspace({ 'box.ts': BOX });
    const { t } = compiler(true);
    const targets = ['es5', 'es2015', 'es2017', 'es2019', 'es2021', 'esnext'];
    for (const target of targets) {
      configure({ target, lib: ['es2015'] });
      const cache = new NavCache();
      const project = cache.project(t, ws.root, getLibFiles);
      expect(await lines(project, t), target).toEqual(['definition 1', 'reference 2']);
      expect(retainedLibrarySets(t)).toBe(Math.min(targets.indexOf(target) + 1, SHARED_LIBRARY_SETTINGS));
    }
  });

  it('a later project with the same settings takes the parsed files instead of parsing them again', async () => {
    ws = makeWorkspace({ 'box.ts': BOX });
    const { t, parsed } = compiler(false);
    configure({ lib: ['es2015'] });
    const answer = async () => {
      const cache = new NavCache();
      const found = await lines(cache.project(t, ws.root, getLibFiles), t);
      cache.dispose();
      return found;
    };
    expect(await answer()).toEqual(['definition 1', 'reference 2']);
    const first = parsed();
    expect(first).toBeGreaterThan(1); // box.ts and the es2015 library files
    expect(await answer()).toEqual(['definition 1', 'reference 2']);
    expect(parsed() - first).toBe(1); // box.ts only
    expect(retainedLibrarySets(t)).toBe(1);
  });

  it('disposing a cache disposes the language service of each of its projects', async () => {
    ws = makeWorkspace({ 'box.ts': BOX });
    const { t, disposed } = compiler(true);
    const cache = new NavCache();
    await lines(cache.project(t, ws.root, getLibFiles), t);
    expect(disposed()).toBe(0);
    cache.dispose();
    expect(disposed()).toBe(1);
    // The cache can be used again: it builds a new project.
    expect(await lines(cache.project(t, ws.root, getLibFiles), t)).toEqual(['definition 1', 'reference 2']);
  });
});
