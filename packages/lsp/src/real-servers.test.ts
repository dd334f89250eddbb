// Real language servers on tiny projects: each block starts its server once and skips, saying why, when it is absent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { survivors } from '@bough/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient } from './index.js';
import { makeProject, skipReason, TEST_ENV } from './test-projects.js';

function setup(name: 'go' | 'c' | 'ts' | 'python', limits: ConstructorParameters<typeof LspClient>[0]['limits'] = {}) {
  const state = {} as { client: LspClient; root: string; write: (file: string, text: string) => void };
  let remove = () => {};
  beforeAll(() => {
    const project = makeProject(name);
    remove = project.remove;
    state.root = project.root;
    state.client = new LspClient({ workspaceRoot: project.root, ...TEST_ENV, limits });
    state.write = (file, text) => writeFileSync(join(project.root, file), text);
  });
  afterAll(async () => {
    const pids = state.client?.running().map((server) => server.pid) ?? [];
    await state.client?.dispose();
    remove();
    expect(survivors(pids), 'processes of the servers left after dispose').toEqual([]);
  });
  return state;
}

describe.skipIf(skipReason('gopls') !== undefined)('gopls (Go)', () => {
  const go = setup('go');

  it('outlines a file with nesting, and finds definitions and references across files', async () => {
    const outline = await go.client.outline('calc.go');
    if (!outline.success) throw new Error(outline.error);
    expect(outline.symbols.map((s) => s.name)).toEqual(expect.arrayContaining(['Add', 'Box']));
    const add = outline.symbols.find((s) => s.name === 'Add');
    expect(add).toMatchObject({ kind: 'function', selectionRange: { start: { line: 3, character: 5 } } });

    const definition = await go.client.definition('main.go', { line: 5, character: 14 });
    expect(definition).toMatchObject({
      success: true,
      locations: [{ file: 'calc.go', range: { start: { line: 3 } } }],
    });
    const references = await go.client.references('calc.go', { line: 3, character: 6 });
    if (!references.success) throw new Error(references.error);
    expect(references.locations.map((l) => `${l.file}:${l.range.start.line}`).sort()).toEqual([
      'calc.go:3',
      'main.go:5',
    ]);
    const hover = await go.client.hover('calc.go', { line: 3, character: 6 });
    expect(hover.success && hover.text).toContain('func Add(a int, b int) int');
  });

  it('plans a rename across files as one unified diff and writes nothing', async () => {
    const renamed = await go.client.rename('calc.go', { line: 3, character: 5 }, 'Plus');
    if (!renamed.success) throw new Error(renamed.error);
    expect(renamed.files.map((f) => f.file)).toEqual(['calc.go', 'main.go']);
    expect(renamed.patch).toContain('--- a/calc.go\n+++ b/calc.go\n');
    expect(renamed.patch).toContain('-func Add(a int, b int) int {\n');
    expect(renamed.patch).toContain('+func Plus(a int, b int) int {\n');
    expect(renamed.patch).toContain('-\tfmt.Println(Add(1, 2))\n+\tfmt.Println(Plus(1, 2))\n');
    expect(renamed.note).toBeUndefined();
    const outline = await go.client.outline('calc.go');
    expect(outline.success && outline.symbols.map((s) => s.name)).toContain('Add'); // still on disk as it was
  });

  it('answers diagnostics for the version on disk after each edit', async () => {
    expect(await go.client.diagnostics('main.go')).toMatchObject({ success: true, version: 1, diagnostics: [] });
    go.write(
      'calc.go',
      'package main\n\nfunc Add(a int, b int) int {\n\treturn a + "x"\n}\n\ntype Box struct {\n\tSize int\n}\n\nfunc (b Box) Area() int {\n\treturn b.Size * b.Size\n}\n',
    );
    const broken = await go.client.diagnostics('calc.go');
    if (!broken.success) throw new Error(broken.error);
    expect(broken).toMatchObject({ fresh: true });
    expect(broken.version).toBeGreaterThan(1);
    expect(broken.diagnostics.some((d) => d.severity === 'error' && d.range.start.line === 3)).toBe(true);

    go.write(
      'calc.go',
      'package main\n\nfunc Sum(a int, b int) int {\n\treturn a + b\n}\n\ntype Box struct {\n\tSize int\n}\n\nfunc (b Box) Area() int {\n\treturn b.Size * b.Size\n}\n',
    );
    const fixed = await go.client.diagnostics('calc.go');
    expect(fixed).toMatchObject({ success: true, fresh: true, diagnostics: [] });
    expect(fixed.success && fixed.version).toBe(broken.version + 1);
  });

  it('tells the server of writes made behind its back, and waits for callers to be checked again', async () => {
    go.write('helper.go', 'package main\n\nfunc Helper() int {\n\treturn 1\n}\n');
    go.write('use.go', 'package main\n\nvar used = Helper()\n');
    await go.client.filesChanged(['helper.go', 'use.go']);
    expect(await go.client.diagnostics('use.go')).toMatchObject({ success: true, version: 1, diagnostics: [] });
    // A formatter or command renames the function in a file the server never opened; use.go's text is unchanged.
    go.write('helper.go', 'package main\n\nfunc Renamed() int {\n\treturn 1\n}\n');
    await go.client.filesChanged(['helper.go']);
    const caller = await go.client.diagnostics('use.go');
    if (!caller.success) throw new Error(caller.error);
    expect(caller.version).toBe(1);
    expect(caller.diagnostics.map((d) => d.message).join('\n')).toMatch(/Helper/);
  });
});

describe.skipIf(skipReason('clangd') !== undefined)('clangd (C)', () => {
  const c = setup('c');

  it('outlines, defines across the header, finds references and hovers', async () => {
    const outline = await c.client.outline('main.c');
    if (!outline.success) throw new Error(outline.error);
    expect(outline.symbols.map((s) => `${s.container ? `${s.container}.` : ''}${s.name}`)).toEqual(
      expect.arrayContaining(['point', 'point.x', 'point.y', 'main']),
    );
    const definition = await c.client.definition('main.c', { line: 9, character: 10 });
    if (!definition.success) throw new Error(definition.error);
    expect(definition.locations[0]?.file).toMatch(/^util\.[ch]$/);
    const references = await c.client.references('main.c', { line: 3, character: 6 });
    expect(references.success && references.locations.length).toBe(2);
    const hover = await c.client.hover('main.c', { line: 3, character: 6 });
    expect(hover.success && hover.text).toContain('int');
  });

  it('plans a rename of a function in the files that use it', async () => {
    const renamed = await c.client.rename('main.c', { line: 9, character: 10 }, 'sum');
    if (!renamed.success) throw new Error(renamed.error);
    expect(renamed.patch).toContain('-  return add(p.x, p.y);\n+  return sum(p.x, p.y);\n');
    expect(renamed.files.map((f) => f.file)).toContain('main.c');
  });

  it('answers diagnostics for exactly the edited version', async () => {
    const clean = await c.client.diagnostics('main.c');
    expect(clean).toMatchObject({ success: true, fresh: true, diagnostics: [] });
    c.write('main.c', '#include "util.h"\n\nint main(void) {\n  return add(1, missing);\n}\n');
    const broken = await c.client.diagnostics('main.c');
    if (!broken.success) throw new Error(broken.error);
    expect(broken.version).toBe((clean.success ? clean.version : 0) + 1);
    expect(broken.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        range: expect.objectContaining({ start: { line: 3, character: 16 } }),
      }),
    ]);
    // A warm call skips the read while the file's stamp is unchanged; a rewrite of the same size still changes it.
    expect(await c.client.references('main.c', { line: 2, character: 5 })).toMatchObject({ success: true });
    c.write('main.c', '#include "util.h"\n\nint main(void) {\n  return add(1, mizzing);\n}\n');
    const same = await c.client.diagnostics('main.c');
    if (!same.success) throw new Error(same.error);
    expect(same.version).toBe(broken.version + 1);
    expect(same.diagnostics[0]?.message).toContain('mizzing');
  });
});

describe.skipIf(skipReason('typescript-language-server') !== undefined)('typescript-language-server (TS)', () => {
  // Unversioned publishes: a loaded machine can space the syntax and semantic passes far apart.
  const ts = setup('ts', { unversionedSettleMs: 2_000 });

  it('finds references across files and reports a type error of the edited version', async () => {
    expect(await ts.client.diagnostics('main.ts')).toMatchObject({ success: true, diagnostics: [] });
    const references = await ts.client.references('math.ts', { line: 0, character: 17 });
    if (!references.success) throw new Error(references.error);
    expect(new Set(references.locations.map((l) => l.file))).toEqual(new Set(['math.ts', 'main.ts']));
    ts.write('main.ts', "import { double } from './math.js';\n\nexport const four: string = double(2);\n");
    const broken = await ts.client.diagnostics('main.ts');
    if (!broken.success) throw new Error(broken.error);
    expect(broken.diagnostics.map((d) => d.code)).toContain('2322');
  });
});

describe.skipIf(skipReason('pyright-langserver') !== undefined)('pyright (Python)', () => {
  const py = setup('python');

  it('outlines, defines across modules and reports a type error', async () => {
    const outline = await py.client.outline('shapes.py');
    expect(outline.success && outline.symbols.map((s) => s.name)).toContain('area');
    const definition = await py.client.definition('main.py', { line: 2, character: 7 });
    expect(definition).toMatchObject({ success: true, locations: [{ file: 'shapes.py' }] });
    py.write('main.py', 'from shapes import area\n\nprint(area("2", 3))\n');
    const broken = await py.client.diagnostics('main.py');
    if (!broken.success) throw new Error(broken.error);
    expect(broken.diagnostics.some((d) => d.severity === 'error' && d.range.start.line === 2)).toBe(true);
  });
});
