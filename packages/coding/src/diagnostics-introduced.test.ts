import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  // One finding exists before any edit (an unused import): it must never be reported as introduced.
  ws = makeWorkspace({ 'app.py': 'import os\n\n\ndef total(xs):\n    return sum(xs)\n', 'notes.txt': 'n\n' });
});
afterEach(() => ws.cleanup());

const branchFor = (diagnostics?: boolean) =>
  toolkitBranch(ws.root, {
    tools: ['reader', 'editor'],
    notify: false,
    ...(diagnostics === undefined ? {} : { diagnostics }),
    // A loaded machine must not turn this into a budget test.
    limits: { diagnosticsBudgetMs: 60_000 },
  });

describe('diagnostics_introduced', () => {
  it('reports what an edit introduced and not what was already there', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'app.py' });
    const out = await call(branch, 'editor', {
      action: 'edit',
      file_path: 'app.py',
      old_string: '    return sum(xs)',
      new_string: '    return sum(xs) + offset',
    });
    expect(out.success).toBe(true);
    const found = out.diagnostics_introduced as { code: string; message: string; line: number }[];
    expect(found.map((d) => d.code)).toEqual(['F821']);
    expect(found[0]?.message).toMatch(/offset/);
    expect(out.diagnostics_note).toBeUndefined();
  });

  it('is empty for a clean edit, follows moved lines, and is absent for other files, dry runs and when turned off', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'app.py' });
    // Lines added above move the old unused import finding; it is still not new.
    const moved = await call(branch, 'editor', {
      action: 'edit',
      file_path: 'app.py',
      old_string: 'import os\n',
      new_string: '"""Totals."""\n\nimport os\n',
    });
    expect(moved.diagnostics_introduced).toEqual([]);
    const plain = await call(branch, 'editor', { action: 'write', file_path: 'fresh.txt', content: 'x\n' });
    expect(plain.success).toBe(true);
    expect(plain.diagnostics_introduced).toBeUndefined();
    const created = await call(branch, 'editor', { action: 'write', file_path: 'new.py', content: 'print(y)\n' });
    expect((created.diagnostics_introduced as { code: string }[]).map((d) => d.code)).toEqual(['F821']);
    const off = branchFor(false);
    await call(off, 'reader', { action: 'read', path: 'app.py' });
    const quiet = await call(off, 'editor', {
      action: 'edit',
      file_path: 'app.py',
      old_string: 'sum(xs)',
      new_string: 'sum(xs) + nope',
    });
    expect(quiet.success).toBe(true);
    expect(quiet.diagnostics_introduced).toBeUndefined();
  });

  it('says when the check ran out of its budget instead of pretending the edit is clean', async () => {
    const branch = toolkitBranch(ws.root, {
      tools: ['reader', 'editor'],
      notify: false,
      limits: { diagnosticsBudgetMs: 1 },
    });
    await call(branch, 'reader', { action: 'read', path: 'app.py' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const out = await call(branch, 'editor', {
      action: 'edit',
      file_path: 'app.py',
      old_string: 'sum(xs)',
      new_string: 'sum(xs) + later',
    });
    expect(out.success).toBe(true);
    expect(out.diagnostics_introduced).toEqual([]);
    expect(String(out.diagnostics_note)).toMatch(/budget/);
  });
});

describe('diagnostics_introduced for TypeScript', () => {
  it('reports a type error an edit introduced', async () => {
    const ts = makeWorkspace({
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022' } }),
      'src/sum.ts': 'export function sum(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, 0);\n}\n',
    });
    try {
      const branch = toolkitBranch(ts.root, {
        tools: ['reader', 'editor'],
        notify: false,
        limits: { diagnosticsBudgetMs: 120_000 },
      });
      await call(branch, 'reader', { action: 'read', path: 'src/sum.ts' });
      const out = await call(branch, 'editor', {
        action: 'edit',
        file_path: 'src/sum.ts',
        old_string: '  return xs.reduce((a, b) => a + b, 0);',
        new_string: "  const label: number = 'total';\n  return xs.reduce((a, b) => a + b, 0) + label;",
      });
      expect(out.success).toBe(true);
      expect((out.diagnostics_introduced as { code: string }[]).map((d) => d.code)).toEqual(['TS2322']);
    } finally {
      ts.cleanup();
    }
  }, 180_000);
});
