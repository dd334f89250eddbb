import { makeWorkspace, type TempWorkspace } from '@branchkit/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { handleCodeCheck } from './handle-check.js';

describe('code_check with TypeScript', () => {
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());
  const run = (request: Record<string, unknown>) => handleCodeCheck(request, { workspaceRoot: ws.root });

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
});
