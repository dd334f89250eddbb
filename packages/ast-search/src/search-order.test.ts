import { loadAstGrep, type Napi } from '@bough/grammars';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleAstSearch } from './handle-ast-search.js';
import { compilePattern, mayMatch } from './internal/compile-pattern.js';
import { searchFiles } from './internal/search-files.js';
import { emptySkips, listCandidates } from './internal/source-files.js';
import { LANGUAGE_INFO } from './languages.js';
import { resolveAstSearchLimits } from './limits.js';
import type { AstSearchInput } from './schema.js';

describe('ast_search scheduling: big files first, answers in listing order', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({});
  });
  afterEach(() => ws.cleanup());
  const run = (request: Record<string, unknown>, limits?: Record<string, number>) =>
    handleAstSearch(request as AstSearchInput, { workspaceRoot: ws.root, ...(limits ? { limits } : {}) });

  it('returns the first max_results in listing order even when a later, bigger file is parsed first', async () => {
    ws.write('src/a.py', 'print("a1")\nprint("a2")\n');
    // Listed last, largest by far, and full of matches: it starts first and finishes whenever it does.
    ws.write('src/z.py', 'print("z")\n'.repeat(5_000));
    ws.write('src/m.py', `${'y = 2\n'.repeat(2_000)}print("m")\n`);
    for (const parseConcurrency of [1, 2, 8]) {
      const few = await run({ pattern: 'print($A)', path: 'src', max_results: 3 }, { parseConcurrency });
      expect(few.matches.map((m) => `${m.file}:${m.line}`)).toEqual(['src/a.py:1', 'src/a.py:2', 'src/m.py:2001']);
      expect(few).toMatchObject({ total: 5_003, truncated: true, files_searched: 3 });
      const more = await run({ pattern: 'print($A)', path: 'src', max_results: 5 }, { parseConcurrency });
      expect(more.matches.map((m) => `${m.file}:${m.line}`)).toEqual([
        'src/a.py:1',
        'src/a.py:2',
        'src/m.py:2001',
        'src/z.py:1',
        'src/z.py:2',
      ]);
    }
  });

  it('gives the same answer whatever the concurrency and the file sizes', async () => {
    for (let i = 0; i < 15; i++) {
      const size = (i * 7) % 15;
      ws.write(`mix/f${String(i).padStart(2, '0')}.js`, `${'let v = 0;\n'.repeat(size * 300)}log(${i}, ${size});\n`);
    }
    const answers = [];
    for (const parseConcurrency of [1, 4, 32]) {
      answers.push(
        await run({ pattern: 'log($$$)', path: 'mix', lang: 'javascript', max_results: 6 }, { parseConcurrency }),
      );
    }
    expect(answers[0]!.matches.map((m) => m.text)).toEqual([
      'log(0, 0)',
      'log(1, 7)',
      'log(2, 14)',
      'log(3, 6)',
      'log(4, 13)',
      'log(5, 5)',
    ]);
    expect(answers[0]!.total).toBe(15);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('hands the largest file to the engine first, and reads a file too big to read synchronously whole', async () => {
    // Big enough to be read outside the small-file scratch buffer (256 KiB), as lib.dom.d.ts is.
    ws.write('lib/big.py', 'print("big")\n'.repeat(30_000));
    for (let i = 0; i < 12; i++) ws.write(`lib/small${i}.py`, `print(${i})\n`.repeat(50));
    // Past the synchronous read size (4 MiB): read on the thread pool, still whole.
    ws.write('huge/h.py', `# ${'a'.repeat(4_500_000)}\nprint("huge")\n`);
    const { napi } = await loadAstGrep();
    const handed: number[] = [];
    const recording = {
      ...napi,
      parseAsync: (lang: string, text: string) => {
        handed.push(text.length);
        return napi.parseAsync(lang, text);
      },
    } as Napi;
    const compiled = compilePattern(napi, LANGUAGE_INFO.python, 'print($A)');
    if (!compiled.ok) throw new Error(compiled.reason);
    const workspace = await Workspace.open(ws.root);
    const limits = resolveAstSearchLimits({ maxFileBytes: 8 * 2 ** 20, parseConcurrency: 8 });
    const search = async (dir: string) => {
      const skips = emptySkips();
      const { files } = await listCandidates(workspace, ws.path(dir), new Set(['py']), skips, { maxEntries: 100 });
      return searchFiles(recording, 'python', compiled.matchers, files, workspace, skips, { limits, maxResults: 5 });
    };
    const lib = await search('lib');
    expect(lib.total).toBe(30_000 + 12 * 50);
    expect(handed[0]).toBe(Math.max(...handed));
    const huge = await search('huge');
    expect(huge).toMatchObject({ total: 1, filesSearched: 1 });
    expect(huge.matches.map((m) => m.line)).toEqual([2]);
  });

  it('cancels while a big file is still parsing', async () => {
    ws.write('big/huge.js', 'call(1, [2, 3], { a: 4 });\n'.repeat(200_000));
    const controller = new AbortController();
    const pending = handleAstSearch(
      { pattern: 'call($$$)', path: 'big', lang: 'javascript' },
      { workspaceRoot: ws.root, signal: controller.signal, limits: { maxFileBytes: 64 * 2 ** 20 } },
    );
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toMatchObject({ status: 'error', error_code: 'aborted' });
  });
});

describe('ast_search word prefilter', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({});
  });
  afterEach(() => ws.cleanup());
  const run = (request: Record<string, unknown>) =>
    handleAstSearch(request as AstSearchInput, { workspaceRoot: ws.root });

  it('takes the words of non-metavariable leaves only', async () => {
    const { napi } = await loadAstGrep();
    const anchorsOf = (lang: keyof typeof LANGUAGE_INFO, pattern: string) => {
      const compiled = compilePattern(napi, LANGUAGE_INFO[lang], pattern);
      if (!compiled.ok) throw new Error(compiled.reason);
      return compiled.matchers.map((m) => [...m.anchors].sort());
    };
    expect(anchorsOf('javascript', 'Debug.assert($$$)')).toEqual([['Debug', 'assert']]);
    expect(anchorsOf('typescript', 'interface $I { $$$ }')).toEqual([['interface']]);
    // A string leaf that is not one word is not used; the call name is.
    expect(anchorsOf('python', 'print($A, "two words")')).toEqual([['print']]);
    expect(anchorsOf('javascript', '$OBJ.$METHOD($$$)')).toEqual([[]]);
    // Only the selected node counts for a wrapped pattern, not the function put around it.
    expect(anchorsOf('go', 'total := compute($N)').at(-1)).toEqual(['compute', 'total']);
    // In C the expando is `_`: a word holding it may be a metavariable, so it is never required.
    expect(anchorsOf('c', 'my_call(_X, limit)').flat()).not.toContain('my_call');
    expect(anchorsOf('c', 'my_call(_X, limit)').flat()).toContain('limit');
  });

  it('a file without the words counts as searched and changes no answer', async () => {
    ws.write('a/one.js', 'Debug.assert(x > 1, "msg");\n');
    ws.write('a/two.js', 'Debug.fail("no assert call here");\n');
    ws.write('a/three.js', 'const nothing = 1;\n');
    ws.write('a/four.js', 'Debug  .  assert (\n  y\n);\n');
    const result = await run({ pattern: 'Debug.assert($$$)', path: 'a', lang: 'javascript' });
    expect(result.matches.map((m) => m.file)).toEqual(['a/four.js', 'a/one.js']);
    expect(result.files_searched).toBe(4);
  });

  it('keeps matching C metavariables written with the expando and words in strings', async () => {
    ws.write('c/app.c', 'void run(void) {\n  my_call(1, limit);\n  my_call(2, other);\n}\n');
    const c = await run({ pattern: 'my_call($X, limit)', lang: 'c', path: 'c' });
    expect(c.matches.map((m) => m.line)).toEqual([2]);
    ws.write('py/s.py', 'print("two words")\nprint("other")\n');
    const py = await run({ pattern: 'print("two words")', lang: 'python', path: 'py' });
    expect(py.matches.map((m) => m.line)).toEqual([1]);
  });

  it('mayMatch asks for every word of at least one matcher', () => {
    const matchers = [
      { matcher: 'a', anchors: ['alpha', 'beta'] },
      { matcher: 'b', anchors: ['gamma'] },
    ];
    expect(mayMatch(matchers, 'alpha beta')).toBe(true);
    expect(mayMatch(matchers, 'alpha only')).toBe(false);
    expect(mayMatch(matchers, 'gamma')).toBe(true);
    expect(mayMatch([{ matcher: 'c', anchors: [] }], '')).toBe(true);
  });
});
