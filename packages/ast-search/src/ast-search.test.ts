import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleAstSearch } from './handle-ast-search.js';
import { DEFAULT_AST_SEARCH_LIMITS, resolveAstSearchLimits } from './limits.js';
import type { AstSearchInput } from './schema.js';

const FIXTURE: Record<string, string> = {
  'app/main.py': 'import os\n\ndef greet(name):\n    print("hi", name)\n    print(name)\n',
  'app/util.py': 'def helper():\n    print(1)\n',
  'app/broken.py': 'def broken(:\n    print(2)\n',
  'web/index.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\nconsole.log(add(1, 2));\n',
  'web/view.tsx': 'export const View = () => <div className="x">{console.log("r")}</div>;\n',
  'web/legacy.js': 'function old() {\n  console.log("old");\n}\n',
  'native/lib.rs': 'fn main() {\n    let total = compute(2);\n    compute(3);\n}\n',
  'svc/main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("a")\n\tfmt.Println("b", 2)\n}\n',
  'c/app.c': '#include <stdio.h>\nint main(void) {\n  printf("%d\\n", 1);\n  return 0;\n}\n',
  'cpp/app.cpp': '#include <vector>\nint run() {\n  std::vector<int> v;\n  v.push_back(4);\n  return 0;\n}\n',
  'site/index.html': '<html><body><p>one</p><p>two</p></body></html>\n',
  'site/style.css': 'a { color: red; }\np { color: blue; margin: 0; }\n',
  '.gitignore': 'build/\n',
  'build/generated.py': 'print("generated")\n',
};

describe('ast_search behaviour', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace(FIXTURE);
  });
  afterEach(() => ws.cleanup());
  const run = (request: Record<string, unknown>, limits?: Record<string, number>) =>
    handleAstSearch(request as AstSearchInput, { workspaceRoot: ws.root, ...(limits ? { limits } : {}) });

  it('finds python calls with 1-based lines and 0-based columns, skipping ignored and broken files gracefully', async () => {
    const result = await run({ pattern: 'print($A)' });
    expect(result.status).toBe('matches');
    const where = result.matches.map((m) => `${m.file}:${m.line}:${m.col}:${m.text}`);
    expect(where).toContain('app/main.py:5:4:print(name)');
    expect(where).toContain('app/util.py:2:4:print(1)');
    expect(where.some((w) => w.startsWith('build/'))).toBe(false);
    expect(result.skipped?.ignored).toBeGreaterThan(0);
    expect(result.summary).toMatch(/match\(es\) found/);
  });

  it('returns match text exactly as the file holds it after characters outside ASCII and astral ones', async () => {
    ws.write('intl/names.py', '# héllo 😀 ünï\ns = "😀😀"\nimport  os.path  # c\ndef f():\n    import ß\n');
    const result = await run({ pattern: 'import $M', path: 'intl' });
    expect(result.matches.map((m) => [m.line, m.col, m.text])).toEqual([
      [3, 0, 'import  os.path'],
      [5, 4, 'import ß'],
    ]);
    const clipped = await run({ pattern: 'import $M', path: 'intl' }, { maxMatchTextChars: 5 });
    expect(clipped.matches.map((m) => m.text)).toEqual(['impo…', 'impo…']);
  });

  it('counts every match even when only max_results are returned', async () => {
    const result = await run({ pattern: 'print($$$A)', path: 'app', max_results: 1 });
    expect(result.matches).toHaveLength(1);
    expect(result.total).toBeGreaterThanOrEqual(3);
    expect(result.truncated).toBe(true);
    expect(result.summary).toContain(`(showing 1/${result.total})`);
  });

  it('searches typescript, tsx and javascript files by their own extensions', async () => {
    const ts = await run({ pattern: 'console.log($$$A)', lang: 'typescript', path: 'web' });
    expect(ts.matches.map((m) => m.file)).toEqual(['web/index.ts']);
    const tsx = await run({ pattern: 'console.log($$$A)', lang: 'tsx', path: 'web' });
    expect(tsx.matches.map((m) => m.file)).toEqual(['web/view.tsx']);
    const js = await run({ pattern: 'console.log($$$A)', lang: 'javascript', path: 'web' });
    expect(js.matches).toEqual([{ file: 'web/legacy.js', line: 2, col: 2, end_line: 2, text: 'console.log("old")' }]);
  });

  it('matches Go statements that are not valid at the top level', async () => {
    const result = await run({ pattern: 'fmt.Println($$$A)', lang: 'go' });
    expect(result.matches.map((m) => [m.line, m.text])).toEqual([
      [6, 'fmt.Println("a")'],
      [7, 'fmt.Println("b", 2)'],
    ]);
  });

  it('matches C and C++ calls through a function context', async () => {
    const c = await run({ pattern: 'printf($$$ARGS)', lang: 'c' });
    expect(c.matches.map((m) => `${m.file}:${m.line}`)).toEqual(['c/app.c:3']);
    const cpp = await run({ pattern: '$V.push_back($X)', lang: 'cpp' });
    expect(cpp.matches.map((m) => `${m.file}:${m.line}:${m.text}`)).toEqual(['cpp/app.cpp:4:v.push_back(4)']);
  });

  it('matches Rust let statements and calls', async () => {
    const lets = await run({ pattern: 'let $X = compute($N);', lang: 'rust' });
    expect(lets.matches.map((m) => m.line)).toEqual([2]);
    const calls = await run({ pattern: 'compute($N)', lang: 'rust' });
    expect(calls.total).toBe(2);
  });

  it('matches html elements and css declarations', async () => {
    const html = await run({ pattern: '<p>$$$</p>', lang: 'html' });
    expect(html.total).toBe(2);
    const css = await run({ pattern: 'color: $V', lang: 'css' });
    expect(css.matches.map((m) => m.text)).toEqual(['color: red;', 'color: blue;']);
  });

  it('reports ok with no matches and searches a single explicit file', async () => {
    const none = await run({ pattern: 'nothing_here($A)' });
    expect(none).toMatchObject({ status: 'ok', total: 0, matches: [] });
    expect(none.summary).toMatch(/^No matches found/);
    const one = await run({ pattern: 'print($A)', path: 'app/util.py' });
    expect(one.matches.map((m) => m.file)).toEqual(['app/util.py']);
  });

  it('turns an unparsable pattern into status error with a reason', async () => {
    const result = await run({ pattern: 'def (' });
    expect(result).toMatchObject({ status: 'error', error_code: 'invalid_pattern', total: 0 });
    expect(result.summary).toMatch(/not valid/);
    const go = await run({ pattern: 'func ) {', lang: 'go' });
    expect(go.status).toBe('error');
  });

  it('treats an empty path as the workspace root', async () => {
    const root = await run({ pattern: 'print($A)' });
    expect(await run({ pattern: 'print($A)', path: '' })).toEqual(root);
    expect(await run({ pattern: 'print($A)', path: '.' })).toEqual(root);
  });

  it('caps files of the searched language only: other files do not use up maxFiles', async () => {
    const go = await run({ pattern: 'fmt.Println($$$A)', lang: 'go' }, { maxFiles: 1 });
    expect(go).toMatchObject({ status: 'matches', total: 2, truncated: false });
  });

  it('stops at the file cap and the time budget and says so', async () => {
    const capped = await run({ pattern: 'print($A)' }, { maxFiles: 1 });
    expect(capped.truncated).toBe(true);
    expect(capped.summary).toMatch(/Only the first 1/);
    // A clock that moves 5 ms per reading spends a 1 ms budget on the first file, however fast the machine.
    let clock = Date.now();
    const tick = vi.spyOn(Date, 'now').mockImplementation(() => (clock += 5));
    try {
      const budget = await run({ pattern: 'print($A)' }, { timeBudgetMs: 1 });
      expect(budget.truncated).toBe(true);
      expect(budget.summary).toMatch(/time budget of 1 ms/);
    } finally {
      tick.mockRestore();
    }
  });

  it('reads a non-positive or non-finite time budget as the default, like every other timeout', async () => {
    for (const timeBudgetMs of [0, -5, Number.POSITIVE_INFINITY]) {
      expect(resolveAstSearchLimits({ timeBudgetMs }).timeBudgetMs).toBe(DEFAULT_AST_SEARCH_LIMITS.timeBudgetMs);
      const full = await run({ pattern: 'print($A)' }, { timeBudgetMs });
      expect(full).toMatchObject({ status: 'matches', truncated: false });
    }
  });

  it('returns invalid_request for a bad request and honours a pre-aborted signal', async () => {
    expect(await run({ pattern: '' })).toMatchObject({ status: 'error', error_code: 'invalid_request' });
    expect(await run({ pattern: 'x', lang: 'cobol' })).toMatchObject({ error_code: 'invalid_request' });
    expect(await run({ pattern: 'x', max_results: 0 })).toMatchObject({ error_code: 'invalid_request' });
    const controller = new AbortController();
    controller.abort();
    const aborted = await handleAstSearch(
      { pattern: 'print($A)' },
      { workspaceRoot: ws.root, signal: controller.signal },
    );
    expect(aborted).toMatchObject({ status: 'error', error_code: 'aborted' });
  });

  it('keeps matches in file order whatever the parse concurrency, and skips binary files', async () => {
    for (let i = 0; i < 12; i++)
      ws.write(`many/f${String(i).padStart(2, '0')}.py`, `${'x = 1\n'.repeat(i * 50)}print(${i})\n`);
    ws.write('many/zz.py', Buffer.from('print(0)\n\u0000\u0001', 'utf8'));
    for (const parseConcurrency of [1, 3, 16]) {
      const result = await run({ pattern: 'print($A)', path: 'many', lang: 'python' }, { parseConcurrency });
      expect(result.matches.map((m) => m.file)).toEqual(
        Array.from({ length: 12 }, (_, i) => `many/f${String(i).padStart(2, '0')}.py`),
      );
      expect(result.skipped).toMatchObject({ binary: 1 });
    }
  });
});
