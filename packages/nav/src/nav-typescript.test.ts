import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCodeNavTool } from './tool.js';

const LIB = [
  'export interface Shape { area(): number }',
  'export class Circle implements Shape {',
  '  constructor(private r: number) {}',
  '  area(): number { return Math.PI * this.r ** 2; }',
  '}',
  'export function makeCircle(r: number, label?: string): Circle {',
  '  return new Circle(r);',
  '}',
  'export const double = (x: number) => x * 2;',
  '',
].join('\n');
const MAIN = "import { makeCircle, double } from './lib';\nconst c = makeCircle(2);\nconsole.log(double(c.area()));\n";

describe('code_nav for TypeScript and JavaScript', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({
      'src/lib.ts': LIB,
      'src/main.ts': MAIN,
      'web/app.jsx': 'export function App() { return <div/>; }\n',
    });
  });
  afterEach(() => ws.cleanup());
  const signal = new AbortController().signal;

  it('outlines a TS file from a single parse', async () => {
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    const result = await tool.handler({ action: 'outline', path: 'src/lib.ts' }, { signal, callId: '1' });
    expect(result.items.map((i) => `${i.kind} ${i.name} ${i.line}:${i.col}`)).toEqual([
      'interface Shape 1:0',
      'class Circle 2:0',
      'method Circle.constructor 3:2',
      'method Circle.area 4:2',
      'function makeCircle 6:0',
      'function double 9:13',
    ]);
    expect(result.items.find((i) => i.name === 'makeCircle')?.signature).toBe('(r: number, label?: string): Circle');
  });

  it('outlines tsx and jsx files', async () => {
    ws.write('web/view.tsx', 'export const View = () => <span/>;\n');
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    const tsx = await tool.handler({ action: 'outline', path: 'web/view.tsx' }, { signal, callId: '1' });
    expect(tsx.items.map((i) => i.name)).toEqual(['View']);
    const jsx = await tool.handler({ action: 'outline', path: 'web/app.jsx' }, { signal, callId: '2' });
    expect(jsx.items.map((i) => i.name)).toEqual(['App']);
  });

  it('finds definitions and references semantically across files', async () => {
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    const def = await tool.handler(
      { action: 'find_definition', path: '.', symbol: 'makeCircle' },
      { signal, callId: '1' },
    );
    expect(def.items).toMatchObject([{ kind: 'function', file: 'src/lib.ts', line: 6 }]);
    const refs = await tool.handler(
      { action: 'find_references', path: '.', symbol: 'makeCircle' },
      { signal, callId: '2' },
    );
    expect(refs.items.map((i) => `${i.kind} ${i.file}:${i.line}`)).toEqual([
      'definition src/lib.ts:6',
      'reference src/main.ts:1',
      'reference src/main.ts:2',
    ]);
    const inFile = await tool.handler(
      { action: 'find_references', path: 'src/main.ts', symbol: 'makeCircle' },
      { signal, callId: '3' },
    );
    expect(inFile.items.map((i) => i.line)).toEqual([1, 2]);
    expect(inFile.items[0]?.file).toBeUndefined();
  });

  it('treats an empty or omitted path as the workspace root', async () => {
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    const root = await tool.handler({ action: 'outline', path: '.' }, { signal, callId: '1' });
    expect(root.items.map((i) => i.file)).toContain('web/app.jsx');
    expect(await tool.handler({ action: 'outline', path: '' }, { signal, callId: '2' })).toEqual(root);
    expect(await tool.handler({ action: 'outline' } as never, { signal, callId: '3' })).toEqual(root);
  });

  it('drops deleted files from the warm project', async () => {
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    const ask = () => tool.handler({ action: 'find_references', path: '.', symbol: 'double' }, { signal, callId: 'x' });
    expect((await ask()).items.map((i) => i.file)).toContain('src/main.ts');
    rmSync(ws.path('src/main.ts'));
    expect((await ask()).items.map((i) => i.file)).toEqual(['src/lib.ts']);
  });

  it('says when the project was cut at maxProjectFiles', async () => {
    const tool = createCodeNavTool({ workspaceRoot: ws.root, limits: { maxProjectFiles: 1 } });
    const result = await tool.handler(
      { action: 'find_references', path: '.', symbol: 'double' },
      { signal, callId: 'x' },
    );
    expect(result).toMatchObject({ success: true, truncated: true });
    expect(result.note).toMatch(/stopped at 1 files/);
  });

  it('keeps the project warm and picks up edits between calls', async () => {
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    const ask = () => tool.handler({ action: 'find_references', path: '.', symbol: 'double' }, { signal, callId: 'x' });
    const before = (await ask()).items.length;
    ws.write('src/more.ts', "import { double } from './lib';\nexport const four = double(2);\n");
    const after = await ask();
    expect(after.items.length).toBe(before + 2);
    expect(after.items.some((i) => i.file === 'src/more.ts')).toBe(true);
  });

  it('notices files added in new or empty directories, in-place edits and .gitignore changes between calls', async () => {
    mkdirSync(ws.path('empty'));
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    const ask = async (path = '.') =>
      (await tool.handler({ action: 'find_references', path, symbol: 'double' }, { signal, callId: 'x' })).items
        .map((i) => i.file)
        .sort();
    expect(await ask()).toEqual(['src/lib.ts', 'src/main.ts', 'src/main.ts']);
    ws.write('empty/use.ts', "import { double } from '../src/lib';\nexport const a = double(1);\n");
    ws.write('deep/er/use.ts', "import { double } from '../../src/lib';\nexport const b = double(2);\n");
    expect(await ask()).toEqual([
      'deep/er/use.ts',
      'deep/er/use.ts',
      'empty/use.ts',
      'empty/use.ts',
      'src/lib.ts',
      'src/main.ts',
      'src/main.ts',
    ]);
    ws.write('empty/use.ts', 'export const a = 1;\n');
    ws.write('.gitignore', 'deep/\n');
    expect(await ask()).toEqual(['src/lib.ts', 'src/main.ts', 'src/main.ts']);
    ws.write('.gitignore', '');
    expect(await ask('deep')).toEqual(['deep/er/use.ts', 'deep/er/use.ts']);
  });

  it('returns an empty list for an unknown symbol and a syntax error for a broken file outline', async () => {
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    const none = await tool.handler({ action: 'find_definition', path: '.', symbol: 'Nope' }, { signal, callId: '1' });
    expect(none).toMatchObject({ success: true, items: [] });
    expect(none.error_code).toBeUndefined();
    const noneInFile = await tool.handler(
      { action: 'find_references', path: 'src/lib.ts', symbol: 'Nope' },
      { signal, callId: '3' },
    );
    expect(noneInFile).toEqual({ success: true, items: [] });
    for (const action of ['find_definition', 'find_references']) {
      const missing = await tool.handler({ action, path: 'src/lib.ts' } as never, { signal, callId: '4' });
      expect(missing).toMatchObject({ success: false, error_code: 'invalid_request' });
      expect(missing.error).toContain(action);
    }
    ws.write('src/bad.ts', 'export function (\n');
    const bad = await tool.handler({ action: 'outline', path: 'src/bad.ts' }, { signal, callId: '2' });
    expect(bad).toMatchObject({ success: false, error_code: 'syntax_error' });
  });
});

describe('code_nav reads the workspace tsconfig.json', () => {
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());
  const signal = new AbortController().signal;
  const MATH = 'export function square(n: number): number {\n  return n * n;\n}\n';
  const APP = "import { square } from '@lib/math';\nexport const nine = square(3);\n";
  // When '@lib/math' resolves, the import names the library's function; when it does not, the import is a
  // declaration of its own (an unrelated symbol that merely shares the name).
  const LINKED = ['reference src/app/main.ts:1', 'reference src/app/main.ts:2', 'definition src/lib/math.ts:1'];
  const UNLINKED = ['definition src/app/main.ts:1', 'reference src/app/main.ts:2', 'definition src/lib/math.ts:1'];
  const references = async (tool: ReturnType<typeof createCodeNavTool>) => {
    const result = await tool.handler(
      { action: 'find_references', path: '.', symbol: 'square' },
      { signal, callId: 'r' },
    );
    expect(result.success).toBe(true);
    return result.items.map((i) => `${i.kind} ${i.file}:${i.line}`);
  };

  it('resolves imports through paths and baseUrl', async () => {
    ws = makeWorkspace({
      'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["src/lib/*"] } } }',
      'src/lib/math.ts': MATH,
      'src/app/main.ts': APP,
    });
    expect(await references(createCodeNavTool({ workspaceRoot: ws.root }))).toEqual(LINKED);
  });

  it('follows an extends chain (comments and trailing commas allowed) and picks up config edits', async () => {
    ws = makeWorkspace({
      'tsconfig.json': '{\n  // project settings\n  "extends": "./config/base.json",\n}\n',
      'config/base.json':
        '{ "compilerOptions": { "moduleResolution": "bundler", "module": "esnext", "jsx": "react-jsx" } }',
      'src/lib/math.ts': MATH,
      'src/app/main.ts': APP,
    });
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    expect(await references(tool)).toEqual(UNLINKED);
    // paths in an extended file are relative to that file
    ws.write(
      'config/base.json',
      '{ "compilerOptions": { "moduleResolution": "bundler", "module": "esnext", "paths": { "@lib/*": ["../src/lib/*"] } } }',
    );
    expect(await references(tool)).toEqual(LINKED);
  });

  it('never reads a configuration outside the workspace, whether extended or linked', async () => {
    ws = makeWorkspace({ 'src/lib/math.ts': MATH, 'src/app/main.ts': APP });
    const aliasConfig = JSON.stringify({ compilerOptions: { paths: { '@lib/*': [ws.path('src/lib/*')] } } });
    ws.write('alias.json', aliasConfig);
    ws.write('../ws-evil/tsconfig.json', aliasConfig);
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    // The same settings work when they live inside the workspace …
    ws.write('tsconfig.json', '{ "extends": "./alias.json" }');
    expect(await references(tool)).toEqual(LINKED);
    // … but not when the chain leads outside it,
    ws.write('tsconfig.json', '{ "extends": "../ws-evil/tsconfig.json" }');
    expect(await references(tool)).toEqual(UNLINKED);
    // nor when tsconfig.json itself is a link to a file outside.
    rmSync(ws.path('tsconfig.json'));
    symlinkSync(join(ws.outside, 'tsconfig.json'), ws.path('tsconfig.json'));
    expect(await references(tool)).toEqual(UNLINKED);
  });
});
