import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handleCodeCheck } from './handle-check.js';

describe('code_check with ruff', () => {
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());
  const run = (request: Record<string, unknown>, limits?: Record<string, number>) =>
    handleCodeCheck(request, { workspaceRoot: ws.root, ...(limits ? { limits } : {}) });

  it('reports ruff findings with 1-based positions, fixability and a text rendering', async () => {
    ws = makeWorkspace({ 'pkg/a.py': 'import os\nprint(undefined_name)\n' });
    const result = await run({ paths: ['pkg/a.py'], tool: 'ruff' });
    expect(result.status).toBe('diagnostics');
    expect(result.tool).toBe('ruff');
    const byCode = Object.fromEntries(result.diagnostics.map((d) => [d.code, d]));
    expect(byCode.F401).toMatchObject({ file: 'pkg/a.py', line: 1, col: 8, fixable: true, source: 'ruff' });
    expect(byCode.F821).toMatchObject({ line: 2, col: 7, fixable: false, severity: 'warning' });
    expect(result.text).toContain('pkg/a.py:1:8: WARNING F401 `os` imported but unused [fixable]');
    expect(result.summary).toBe('2 issue(s) found.');
  });

  it('turns a syntax error into an error diagnostic and keeps checking other files', async () => {
    ws = makeWorkspace({ 'bad.py': 'def broken(:\n    pass\n', 'good.py': 'x = 1\n' });
    const result = await run({});
    expect(result.diagnostics[0]).toMatchObject({ file: 'bad.py', severity: 'error', code: 'invalid-syntax', line: 1 });
    expect(result.files_checked).toBe(2);
  });

  it('says "No issues found." for clean code and caps the list at max_diagnostics', async () => {
    ws = makeWorkspace({ 'clean.py': 'VALUE = 1\n', 'many.py': 'import a\nimport b\nimport c\n' });
    expect((await run({ paths: ['clean.py'] })).summary).toBe('No issues found.');
    const capped = await run({ paths: ['many.py'], max_diagnostics: 2 });
    expect(capped).toMatchObject({ total: 3, summary: '3 issue(s) found (showing 2/3).' });
    expect(capped.diagnostics).toHaveLength(2);
  });

  it('defaults max_diagnostics to 50 and refuses values outside 1-500 or fractional', async () => {
    ws = makeWorkspace({ 'many.py': Array.from({ length: 60 }, (_, i) => `import m${i}\n`).join('') });
    const defaulted = await run({ paths: ['many.py'] });
    expect(defaulted).toMatchObject({ total: 60, summary: '60 issue(s) found (showing 50/60).' });
    expect(defaulted.diagnostics).toHaveLength(50);
    expect(defaulted.text?.split('\n')).toHaveLength(50);
    expect((await run({ paths: ['many.py'], max_diagnostics: 500 })).diagnostics).toHaveLength(60);
    expect((await run({ paths: ['many.py'], max_diagnostics: 1 })).diagnostics).toHaveLength(1);
    for (const bad of [0, 501, -1, 2.5, '10']) {
      expect(await run({ paths: ['many.py'], max_diagnostics: bad }), String(bad)).toMatchObject({
        status: 'error',
        error_code: 'invalid_request',
      });
    }
  });

  it('treats an empty path like an empty list: the whole workspace', async () => {
    ws = makeWorkspace({ 'a.py': 'import os\n', 'sub/b.py': 'import sys\n' });
    const all = await run({ paths: [] });
    expect(all.files_checked).toBe(2);
    expect(await run({ paths: [''] })).toEqual(all);
    expect(await run({})).toEqual(all);
  });

  it('honours ruff.toml select, line-length and per-file-ignores', async () => {
    ws = makeWorkspace({
      'ruff.toml':
        'line-length = 20\n[lint]\nselect = ["E501", "F401"]\n[lint.per-file-ignores]\n"tests/*" = ["F401"]\n',
      'src/m.py': 'import os\nx = "a string that is long"\n',
      'tests/t.py': 'import os\n',
    });
    const result = await run({});
    const codes = result.diagnostics.map((d) => `${d.file}:${d.code}`).sort();
    expect(codes).toEqual(['src/m.py:E501', 'src/m.py:F401']);
    expect(result.summary).toContain('ruff.toml');
  });

  it('reads [tool.ruff] from pyproject.toml and prefers .ruff.toml', async () => {
    ws = makeWorkspace({
      'pyproject.toml': '[project]\nname = "x"\n[tool.ruff.lint]\nselect = ["E711"]\n',
      'a.py': 'import os\nif os == None:\n    pass\n',
    });
    expect((await run({})).diagnostics.map((d) => d.code)).toEqual(['E711']);
    ws.write('.ruff.toml', 'line-length = 10\n[lint]\nselect = ["E501"]\n');
    expect((await run({})).diagnostics.map((d) => d.code)).toEqual(['E501']);
  });

  it('falls back to defaults and says so when the configuration is broken', async () => {
    ws = makeWorkspace({ 'ruff.toml': '[lint]\nselect = ["NOPE999"]\n', 'a.py': 'import os\n' });
    const result = await run({});
    expect(result.diagnostics.map((d) => d.code)).toEqual(['F401']);
    expect(result.summary).toMatch(/ruff defaults were used/);
    ws.write('ruff.toml', 'this is = = not toml');
    expect((await run({})).summary).toMatch(/not valid TOML/);
  });

  it('stops at the time budget and says how many files were not checked', async () => {
    ws = makeWorkspace({ 'a.py': 'import os\n', 'b.py': 'import os\n' });
    // A clock that moves 10 ms on every look: the 1 ms budget is spent before the first file whatever the machine's
    // speed (with the real clock a fast run could lint a file within the same millisecond).
    let now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => {
      now += 10;
      return now;
    });
    let result: Awaited<ReturnType<typeof run>>;
    try {
      result = await run({}, { timeBudgetMs: 1 }); // 0 would mean the default (the one timeout rule)
    } finally {
      clock.mockRestore();
    }
    expect(result.files_checked).toBe(0);
    expect(result.summary).toMatch(/2 file\(s\) not checked/);
  });
});
