// The toolkit runs language servers by itself: code_nav and code_check answer for Go through a real gopls that the
// toolkit starts on the first Go call and ends when it is disposed. Skipped, with the reason printed, without gopls.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Branch } from '@bough/core';
import { makeWorkspace, notInstalled, processesIn, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { codingToolkit } from './toolkit.js';

const SKIPPED = "the toolkit's language-server tests are";

const GO = {
  'go.mod': 'module example.com/demo\n\ngo 1.19\n',
  'calc.go': 'package main\n\n// Add returns the sum.\nfunc Add(a int, b int) int {\n\treturn a + b\n}\n',
  'main.go': 'package main\n\nfunc main() {\n\tprintln(Add(1, 2))\n}\n',
};
// Go kept off the network and on the installed toolchain.
const GO_ENV = { env: { GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' } };

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace(GO);
});
afterEach(() => ws.cleanup());

function branchWith(options: Parameters<typeof codingToolkit>[0]) {
  const toolkit = codingToolkit({ tools: ['reader', 'editor', 'code_check', 'code_nav'], notify: false, ...options });
  const branch = new Branch({ workspaceRoot: ws.root, system: 'test' });
  branch.registerTools(toolkit);
  return { branch, toolkit };
}

describe.skipIf(notInstalled('gopls', SKIPPED))('the toolkit starts language servers on demand', () => {
  it('answers code_nav and code_check for Go through gopls and ends it on dispose', async () => {
    const { branch, toolkit } = branchWith({ languageServers: GO_ENV });
    expect(processesIn(ws.root)).toEqual([]); // building the tools starts nothing
    const outline = await call(branch, 'code_nav', { action: 'outline', path: 'calc.go' });
    expect(outline).toMatchObject({ success: true, items: [{ kind: 'function', name: 'Add', line: 4 }] });
    const refs = await call(branch, 'code_nav', { action: 'find_references', path: '.', symbol: 'Add' });
    expect((refs.items as { file: string; line: number }[]).map((i) => `${i.file}:${i.line}`)).toEqual([
      'calc.go:4',
      'main.go:4',
    ]);
    expect(processesIn(ws.root).length).toBeGreaterThan(0);
    await call(branch, 'reader', { action: 'read', path: 'main.go' });
    await call(branch, 'editor', {
      action: 'edit',
      file_path: 'main.go',
      old_string: 'Add(1, 2)',
      new_string: 'Add(1, "two")',
    });
    const checked = await call(branch, 'code_check', { paths: ['main.go'] });
    expect(checked).toMatchObject({ success: true, status: 'diagnostics', tool: 'lsp' });
    expect((checked.diagnostics as { line: number }[])[0]?.line).toBe(4);
    await toolkit.dispose();
    expect(processesIn(ws.root)).toEqual([]);
    // A disposed toolkit's tools built afterwards run without servers; nothing is started again.
    const again = await call(branch, 'code_nav', { action: 'outline', path: 'calc.go' });
    expect(again.success).toBe(false);
    expect(processesIn(ws.root)).toEqual([]);
  });

  it('stops a server left idle, and starts it again on the next call', async () => {
    const { branch, toolkit } = branchWith({ languageServers: { ...GO_ENV, limits: { idleShutdownMs: 200 } } });
    try {
      expect(await call(branch, 'code_nav', { action: 'outline', path: 'calc.go' })).toMatchObject({ success: true });
      expect(processesIn(ws.root).length).toBeGreaterThan(0);
      while (processesIn(ws.root).length > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await call(branch, 'code_nav', { action: 'outline', path: 'calc.go' })).toMatchObject({ success: true });
    } finally {
      await toolkit.dispose();
    }
  });

  it("applies code_nav's rename patch with one editor patch call", async () => {
    const { branch, toolkit } = branchWith({ languageServers: GO_ENV });
    try {
      const hover = await call(branch, 'code_nav', { action: 'hover', path: 'calc.go', symbol: 'Add' });
      expect((hover.items as { doc?: string }[])[0]?.doc).toContain('func Add(a int, b int) int');
      const renamed = await call(branch, 'code_nav', { action: 'rename', path: '.', symbol: 'Add', new_name: 'Sum' });
      expect(renamed.success).toBe(true);
      await call(branch, 'reader', { action: 'read', path: 'calc.go' });
      await call(branch, 'reader', { action: 'read', path: 'main.go' });
      const applied = await call(branch, 'editor', { action: 'patch', patch: renamed.patch });
      expect(applied).toMatchObject({ success: true });
      expect(readFileSync(join(ws.root, 'main.go'), 'utf8')).toContain('println(Sum(1, 2))');
      expect(readFileSync(join(ws.root, 'calc.go'), 'utf8')).toContain('func Sum(a int, b int) int {');
      const checked = await call(branch, 'code_check', { paths: [] });
      expect(checked).toMatchObject({ success: true, status: 'ok' });
    } finally {
      await toolkit.dispose();
    }
  });

  it('reports what an edit broke in its callers, with lines mapped across the edit', async () => {
    ws.write(
      'calc.go',
      'package main\n\nvar broken int = "x"\n\n// Add returns the sum.\nfunc Add(a int, b int) int {\n\treturn a + b\n}\n',
    );
    const { branch, toolkit } = branchWith({ languageServers: GO_ENV });
    const edit = (args: object) => call(branch, 'editor', { file_path: 'calc.go', ...args });
    try {
      await call(branch, 'reader', { action: 'read', path: 'calc.go' });
      // Lines added above the existing error move it; it is not new.
      const moved = await edit({
        action: 'edit',
        old_string: 'package main\n',
        new_string: 'package main\n\n// Numbers.\n',
      });
      expect(moved).toMatchObject({ success: true, diagnostics_introduced: [] });
      expect(moved.diagnostics_note).toBeUndefined();
      // A changed signature breaks the caller in main.go, a file the edit did not touch.
      const broke = await edit({
        action: 'edit',
        old_string: 'func Add(a int, b int) int {\n\treturn a + b',
        new_string: 'func Add(a int) int {\n\treturn a',
      });
      const found = broke.diagnostics_introduced as { file: string; line: number; severity: string }[];
      expect(found.map((d) => `${d.file}:${d.line}:${d.severity}`)).toEqual(['main.go:4:error']);
      // The old error fixed and the same error written further down: counted by wording alone nothing changed.
      const swapped = await edit({
        action: 'multi_edit',
        edits: [
          { old_string: 'var broken int = "x"', new_string: 'var broken int = 1' },
          { old_string: '\treturn a\n}\n', new_string: '\treturn a\n}\n\nvar other int = "x"\n' },
        ],
      });
      const again = swapped.diagnostics_introduced as { file: string; line: number; message: string }[];
      expect(again.map((d) => `${d.file}:${d.line}`)).toEqual(['calc.go:12']);
    } finally {
      await toolkit.dispose();
    }
  });

  it('names the install command when the server is missing, and leaves Go unsupported when turned off', async () => {
    const absent = {
      id: 'gopls',
      extensions: { go: 'go' },
      command: ['bough-no-such-gopls'],
      install: 'apt-get install gopls',
    };
    const { branch, toolkit } = branchWith({ languageServers: { servers: [absent] } });
    const out = await call(branch, 'code_nav', { action: 'outline', path: 'calc.go' });
    expect(out).toMatchObject({ success: false, error_code: 'unavailable' });
    expect(out.error).toContain('apt-get install gopls');
    await toolkit.dispose();
    const off = toolkitBranch(ws.root, { tools: ['code_nav'], notify: false, languageServers: false });
    const plain = await call(off, 'code_nav', { action: 'outline', path: 'calc.go' });
    expect(plain).toMatchObject({ success: false, error_code: 'unsupported_language' });
  });
});
