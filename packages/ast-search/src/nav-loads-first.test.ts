import { handleCodeNav } from '@bough/nav';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { handleAstSearch } from './handle-ast-search.js';
import type { AstSearchInput } from './schema.js';

// Vitest runs each test file in its own process, so code_nav below is the first component of this process to load
// ast-grep. napi keeps only the first grammar registration of a process; before @bough/grammars, code_nav
// registered Python alone and every later Rust/Go/C search here came back `language_unavailable`.
describe('ast_search after code_nav loaded ast-grep first in the same process', () => {
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());

  it('still searches Go, Rust, C and C++', async () => {
    ws = makeWorkspace({
      'tool.py': 'def helper():\n    return 1\n',
      'svc/main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("go")\n}\n',
      'native/lib.rs': 'fn main() {\n    let n = compute(2);\n}\n',
      'c/app.c': '#include <stdio.h>\nint main(void) {\n  printf("c");\n  return 0;\n}\n',
      'cpp/app.cpp': 'int run() {\n  std::vector<int> v;\n  v.push_back(4);\n  return 0;\n}\n',
    });
    const outline = await handleCodeNav({ action: 'outline', path: 'tool.py' }, { workspaceRoot: ws.root });
    expect(outline).toMatchObject({ success: true, items: [{ kind: 'function', name: 'helper' }] });

    const search = (pattern: string, lang: string) =>
      handleAstSearch({ pattern, lang } as AstSearchInput, { workspaceRoot: ws.root });
    const go = await search('fmt.Println($$$A)', 'go');
    expect(go.status, go.summary).toBe('matches');
    expect(go.matches.map((m) => `${m.file}:${m.line}`)).toEqual(['svc/main.go:6']);
    const rust = await search('let $X = compute($N);', 'rust');
    expect(rust.matches.map((m) => `${m.file}:${m.line}`)).toEqual(['native/lib.rs:2']);
    const c = await search('printf($$$A)', 'c');
    expect(c.matches.map((m) => `${m.file}:${m.line}`)).toEqual(['c/app.c:3']);
    const cpp = await search('$V.push_back($X)', 'cpp');
    expect(cpp.matches.map((m) => `${m.file}:${m.line}`)).toEqual(['cpp/app.cpp:3']);
    const python = await search('return $X', 'python');
    expect(python.matches.map((m) => m.file)).toEqual(['tool.py']);
  });
});
