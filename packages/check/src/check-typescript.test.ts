import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckCache } from './check-cache.js';
import { handleCodeCheck } from './handle-check.js';

// One cache for the whole file, as one tool instance keeps it, so the standard library is parsed once per test run.
const cache = new CheckCache();

describe('code_check with TypeScript', () => {
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());
  const run = (request: Record<string, unknown>) => handleCodeCheck(request, { workspaceRoot: ws.root, cache });

  it('reports semantic errors across imports and limits output to the requested files', async () => {
    ws = makeWorkspace({
      'src/lib.ts':
        'export function add(a: number, b: number): number {\n  return a + b;\n}\nconst unused: string = 1;\n',
      'src/main.ts': "import { add } from './lib';\nconst total: string = add(1, 2);\nconsole.log(total);\n",
    });
    const result = await run({ paths: ['src/main.ts'], tool: 'typescript' });
    expect(result.tool).toBe('typescript');
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      file: 'src/main.ts',
      line: 2,
      col: 7,
      code: 'TS2322',
      severity: 'error',
    });
    expect(result.text).toMatch(/^src\/main\.ts:2:7: ERROR TS2322 /);
  });

  it('reports syntax errors in tsx and js without crashing', async () => {
    ws = makeWorkspace({ 'ui/view.tsx': 'export const V = () => <div>;\n', 'old.js': 'function (\n' });
    const result = await run({});
    const files = new Set(result.diagnostics.map((d) => d.file));
    expect(files).toEqual(new Set(['ui/view.tsx', 'old.js']));
    expect(result.diagnostics.every((d) => d.severity === 'error')).toBe(true);
  });

  it('uses the workspace tsconfig.json, including what it extends', async () => {
    ws = makeWorkspace({
      'tsconfig.base.json': '{ "compilerOptions": { "strict": false, "noImplicitAny": false } }',
      'tsconfig.json': '{ "extends": "./tsconfig.base.json", "compilerOptions": { "noUnusedLocals": true } }',
      'a.ts': 'export function f(x) { const y = 1; return x; }\n',
    });
    const result = await run({ paths: ['a.ts'] });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['TS6133']);
    expect(result.summary).toContain('tsconfig.json');
  });

  it('checks projects whose tsconfig uses options TypeScript 6 deprecates (node10 resolution, baseUrl)', async () => {
    // The deprecation is a configuration-level error that code_check does not report; the options still apply, so
    // imports resolve through them and the files get their ordinary diagnostics.
    ws = makeWorkspace({
      'tsconfig.json':
        '{ "compilerOptions": { "moduleResolution": "node", "module": "commonjs", "baseUrl": ".", "paths": { "@/*": ["src/*"] }, "strict": true } }',
      'node_modules/dep/package.json': '{ "name": "dep", "types": "index.d.ts" }',
      'node_modules/dep/index.d.ts': 'export declare const pkg: string;\n',
      'src/lib.ts': 'export const one = 1;\n',
      'src/main.ts':
        "import { pkg } from 'dep';\nimport { one } from '@/lib';\nimport { one as same } from 'src/lib';\nexport const n: number = pkg;\nexport const s: string = one + same;\n",
    });
    const result = await run({ paths: ['src/main.ts'] });
    expect(result.success).toBe(true);
    expect(result.diagnostics.map((d) => `${d.line}:${d.code}`)).toEqual(['4:TS2322', '5:TS2322']);
    expect(result.summary).toContain(
      'Options TypeScript 6.0 deprecates, still applied: baseUrl, moduleResolution=node10.',
    );
  });

  it('keeps TypeScript 5 defaults where a tsconfig is silent, unless the project installs TypeScript 6', async () => {
    const files = {
      'tsconfig.json':
        '{ "compilerOptions": { "target": "ES2022", "module": "ESNext", "moduleResolution": "bundler" } }',
      'src/loose.ts': 'export function twice(x) {\n  return x * 2;\n}\nimport "./styles.css";\n',
    };
    ws = makeWorkspace(files);
    const onFive = await run({ paths: ['src/loose.ts'], tool: 'typescript' });
    expect(onFive.diagnostics).toEqual([]);
    ws.cleanup();
    ws = makeWorkspace({
      ...files,
      'node_modules/typescript/package.json': '{ "name": "typescript", "version": "6.0.2" }',
    });
    const onSix = await run({ paths: ['src/loose.ts'], tool: 'typescript' });
    expect(onSix.diagnostics.map((d) => d.code).sort()).toEqual(['TS2882', 'TS7006']);
  });

  it('without a tsconfig, side-effect imports of files TypeScript cannot resolve are not reported', async () => {
    ws = makeWorkspace({ 'main.ts': "import './styles.css';\nexport const n: number = 'x';\n" });
    const result = await run({ paths: ['main.ts'] });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['TS2322']);
  });

  it('resolves declarations from node_modules through the workspace', async () => {
    ws = makeWorkspace({
      'node_modules/dep/package.json': '{ "name": "dep", "types": "index.d.ts" }',
      'node_modules/dep/index.d.ts': 'export declare function shout(s: string): string;\n',
      'a.ts': "import { shout } from 'dep';\nconst n: number = shout('x');\n",
    });
    const result = await run({ paths: ['a.ts'] });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['TS2322']);
  });

  it('checks python and typescript together under auto', async () => {
    ws = makeWorkspace({ 'a.py': 'import os\n', 'b.ts': 'const x: number = "s";\nexport {};\n' });
    const result = await run({});
    expect(result.tool).toBe('ruff+typescript');
    expect(result.diagnostics.map((d) => d.source).sort()).toEqual(['ruff', 'typescript']);
    expect(result.diagnostics[0]?.severity).toBe('error');
  });

  it('returns ok with a note when nothing matches the requested checker', async () => {
    ws = makeWorkspace({ 'README.md': '# hi\n' });
    const result = await run({ paths: ['README.md'], tool: 'typescript' });
    expect(result.status).toBe('ok');
    expect(result.summary).toMatch(/No TypeScript\/JavaScript files/);
  });

  it('stops at the time budget between files and says how many were not checked', async () => {
    ws = makeWorkspace({ 'a.ts': 'export const a: number = "x";\n', 'b.ts': 'export const b = 1;\n' });
    const result = await handleCodeCheck({}, { workspaceRoot: ws.root, cache, limits: { timeBudgetMs: 1 } }); // 0 means the default
    expect(result.files_checked).toBe(0);
    expect(result.summary).toMatch(/2 file\(s\) not checked/);
  });

  it('does not let a TypeScript import pull in a file outside the workspace', async () => {
    ws = makeWorkspace({ 'main.ts': "import { x } from '../ws-evil/leak';\nexport const y = x;\n" });
    ws.write('../ws-evil/leak.ts', 'export const x: number = 1; // OUTSIDE_SECRET_CANARY\n');
    const result = await run({ paths: ['main.ts'] });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['TS2307']);
    expect(JSON.stringify(result)).not.toContain('OUTSIDE_SECRET_CANARY');
  });
});

describe('code_check TypeScript cache (one instance across calls)', () => {
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());

  it('parses the standard library once and unchanged files never again, while following edits', async () => {
    ws = makeWorkspace({
      'src/lib.ts': 'export const base = 1;\n',
      'src/main.ts': "import { base } from './lib';\nexport const total: number = base + 1;\n",
    });
    const run = () => handleCodeCheck({ paths: ['src/main.ts'] }, { workspaceRoot: ws.root, cache });
    const first = await run();
    expect(first.status).toBe('ok');
    const afterFirst = cache.stats;
    expect(afterFirst.libraryFiles).toBeGreaterThan(0);
    expect(afterFirst.parsed).toBeGreaterThanOrEqual(afterFirst.libraryFiles + 2);

    const second = await run();
    expect(second).toEqual(first);
    expect(cache.stats.parsed).toBe(afterFirst.parsed);
    expect(cache.stats.reused).toBeGreaterThan(afterFirst.reused);

    ws.write('src/lib.ts', 'export const base = "one";\n');
    const third = await run();
    expect(third.diagnostics.map((d) => `${d.file}:${d.line}:${d.code}`)).toEqual(['src/main.ts:2:TS2322']);
    expect(cache.stats.parsed).toBe(afterFirst.parsed + 1);
    expect(cache.stats.libraryFiles).toBe(afterFirst.libraryFiles);
  });

  it('re-parses workspace files, not the library, when tsconfig options change', async () => {
    ws = makeWorkspace({ 'a.ts': 'export function f() { const unused = 1; return 2; }\n' });

    const run = () => handleCodeCheck({ paths: ['a.ts'] }, { workspaceRoot: ws.root, cache });
    expect((await run()).status).toBe('ok');
    const before = cache.stats;
    const compilerOptions = '"target": "ES2022", "module": "ESNext", "moduleResolution": "bundler", "strict": true';
    ws.write('tsconfig.json', `{ "compilerOptions": { ${compilerOptions}, "noUnusedLocals": true } }`);
    expect((await run()).diagnostics.map((d) => d.code)).toEqual(['TS6133']);
    expect(cache.stats.libraryFiles).toBe(before.libraryFiles);
    expect(cache.stats.parsed).toBe(before.parsed + 1);
  });

  it('never serves a cached tree for a file the workspace gate now refuses', async () => {
    ws = makeWorkspace({
      'dep.ts': 'export const value: number = 1;\n',
      'main.ts': "import { value } from './dep';\nexport const doubled = value * 2;\n",
    });
    ws.write('../ws-evil/dep.ts', 'export const value: number = 1;\n');
    const run = () => handleCodeCheck({ paths: ['main.ts'] }, { workspaceRoot: ws.root, cache });
    expect((await run()).status).toBe('ok');
    rmSync(ws.path('dep.ts'));
    symlinkSync(join(ws.outside, 'dep.ts'), ws.path('dep.ts'));
    const after = await run();
    expect(after.diagnostics.map((d) => d.code)).toEqual(['TS2307']);
  });

  it('answers concurrent calls that share the cache as it answers them one by one', async () => {
    ws = makeWorkspace({
      'a.ts': 'export const a: number = "text";\n',
      'b.ts': "import { a } from './a';\nexport const b: string = a;\n",
    });
    const run = (paths: string[]) => handleCodeCheck({ paths }, { workspaceRoot: ws.root, cache });
    const [a, b, both] = await Promise.all([run(['a.ts']), run(['b.ts']), run([])]);
    expect(a.diagnostics.map((d) => `${d.file}:${d.code}`)).toEqual(['a.ts:TS2322']);
    expect(b.diagnostics.map((d) => `${d.file}:${d.code}`)).toEqual(['b.ts:TS2322']);
    expect(both.diagnostics.map((d) => d.file).sort()).toEqual(['a.ts', 'b.ts']);
    expect(await run([])).toEqual(both);
  });
});
