// code_nav for Go and C through real language servers (gopls, clangd); skipped, with the reason printed, when absent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspClient } from '@bough/lsp';
import { makeWorkspace, notInstalled, type TempWorkspace } from '@bough/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCodeNav } from './handle-nav.js';

const SKIPPED = 'its code_nav tests are';

const GO = {
  'go.mod': 'module example.com/demo\n\ngo 1.19\n',
  'calc/calc.go': 'package calc\n\n// Add returns the sum.\nfunc Add(a int, b int) int {\n\treturn a + b\n}\n',
  'main.go': 'package main\n\nimport "example.com/demo/calc"\n\nfunc main() {\n\tprintln(calc.Add(1, 2))\n}\n',
};
const C = {
  'compile_flags.txt': '-std=c11\n',
  'main.c':
    'struct point {\n  int x;\n};\n\nstatic int twice(int v) { return v * 2; }\n\nint main(void) {\n  struct point p = {1};\n  return twice(p.x) + twice(3);\n}\n',
};

function withClient(files: Record<string, string>) {
  const state = {} as { ws: TempWorkspace; lsp: LspClient };
  beforeAll(() => {
    state.ws = makeWorkspace(files);
    state.lsp = new LspClient({ workspaceRoot: state.ws.root, env: { GOPROXY: 'off', GOFLAGS: '-mod=mod' } });
  });
  afterAll(async () => {
    await state.lsp.dispose();
    state.ws.cleanup();
  });
  return state;
}

describe.skipIf(notInstalled('gopls', SKIPPED))('code_nav through gopls', () => {
  const go = withClient(GO);

  it('outlines a Go file, finds its definition, and finds references across the module', async () => {
    const options = { workspaceRoot: go.ws.root, lsp: go.lsp };
    const outline = await handleCodeNav({ action: 'outline', path: 'calc/calc.go' }, options);
    expect(outline).toMatchObject({ success: true, items: [{ kind: 'function', name: 'Add', line: 4, col: 5 }] });
    const definition = await handleCodeNav({ action: 'find_definition', path: '.', symbol: 'Add' }, options);
    expect(definition).toMatchObject({ success: true, items: [{ name: 'Add', file: 'calc/calc.go', line: 4 }] });
    const references = await handleCodeNav({ action: 'find_references', path: '.', symbol: 'Add' }, options);
    if (!references.success) throw new Error(references.error);
    expect(references.items.map((i) => `${i.file}:${i.line}`)).toEqual(['calc/calc.go:4', 'main.go:6']);
    expect(references.items[1]?.signature).toBe('println(calc.Add(1, 2))');
  });

  it('hovers a definition and plans a rename across the module as one patch, writing nothing', async () => {
    const options = { workspaceRoot: go.ws.root, lsp: go.lsp };
    const hover = await handleCodeNav({ action: 'hover', path: 'calc/calc.go', symbol: 'Add' }, options);
    if (!hover.success) throw new Error(hover.error);
    expect(hover.items).toEqual([expect.objectContaining({ name: 'Add', line: 4 })]);
    expect(hover.items[0]?.doc).toContain('func Add(a int, b int) int');
    expect(hover.items[0]?.doc).toContain('Add returns the sum.');
    const renamed = await handleCodeNav({ action: 'rename', path: '.', symbol: 'Add', new_name: 'Plus' }, options);
    if (!renamed.success) throw new Error(renamed.error);
    expect(renamed.items.map((i) => `${i.file}:${i.line}:${i.col}`)).toEqual([
      'calc/calc.go:3:3',
      'calc/calc.go:4:5',
      'main.go:6:14',
    ]);
    expect(renamed.patch).toContain('--- a/main.go\n+++ b/main.go\n');
    expect(renamed.patch).toContain('+\tprintln(calc.Plus(1, 2))\n');
    expect(readFileSync(join(go.ws.root, 'main.go'), 'utf8')).toContain('calc.Add(1, 2)');
    const unnamed = await handleCodeNav({ action: 'rename', path: 'main.go', symbol: 'Add' }, options);
    expect(unnamed).toMatchObject({ success: false, error_code: 'invalid_request' });
  });

  it('refuses a rename whose patch would touch a file the policy withholds, showing none of it', async () => {
    const options = { workspaceRoot: go.ws.root, lsp: go.lsp, hidden: (file: string) => file === 'main.go' };
    const renamed = await handleCodeNav({ action: 'rename', path: 'calc', symbol: 'Add', new_name: 'Plus' }, options);
    expect(renamed).toMatchObject({ success: false, error_code: 'invalid_request' });
    expect(JSON.stringify(renamed)).not.toContain('main.go');
    expect(JSON.stringify(renamed)).not.toContain('println');
  });

  it('keeps Go unsupported without a client, saying what is missing', async () => {
    const result = await handleCodeNav({ action: 'outline', path: 'main.go' }, { workspaceRoot: go.ws.root });
    expect(result).toMatchObject({ success: false, error_code: 'unsupported_language' });
    expect(result.success === false && result.error).toContain('`lsp` option');
  });
});

describe.skipIf(notInstalled('clangd', SKIPPED))('code_nav through clangd', () => {
  const c = withClient(C);

  it('outlines a C file with members, and finds references of a function in that file', async () => {
    const options = { workspaceRoot: c.ws.root, lsp: c.lsp };
    const outline = await handleCodeNav({ action: 'outline', path: 'main.c' }, options);
    if (!outline.success) throw new Error(outline.error);
    expect(outline.items.map((i) => i.name)).toEqual(['point', 'point.x', 'twice', 'main']);
    const references = await handleCodeNav({ action: 'find_references', path: 'main.c', symbol: 'twice' }, options);
    if (!references.success) throw new Error(references.error);
    expect(references.items.map((i) => i.line)).toEqual([5, 9, 9]);
  });

  it('hovers a function and plans its rename at every use', async () => {
    const options = { workspaceRoot: c.ws.root, lsp: c.lsp };
    const hover = await handleCodeNav({ action: 'hover', path: 'main.c', symbol: 'twice' }, options);
    if (!hover.success) throw new Error(hover.error);
    expect(hover.items[0]?.doc).toMatch(/twice/);
    expect(hover.items[0]?.doc).toContain('int v');
    const renamed = await handleCodeNav(
      { action: 'rename', path: 'main.c', symbol: 'twice', new_name: 'dbl' },
      options,
    );
    if (!renamed.success) throw new Error(renamed.error);
    expect(renamed.items.map((i) => i.line)).toEqual([5, 9, 9]);
    expect(renamed.patch).toContain('+  return dbl(p.x) + dbl(3);\n');
  });
});
