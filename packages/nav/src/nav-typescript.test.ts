import { makeWorkspace, type TempWorkspace } from '@branchkit/test-utils';
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

  it('keeps the project warm and picks up edits between calls', async () => {
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    const ask = () => tool.handler({ action: 'find_references', path: '.', symbol: 'double' }, { signal, callId: 'x' });
    const before = (await ask()).items.length;
    ws.write('src/more.ts', "import { double } from './lib';\nexport const four = double(2);\n");
    const after = await ask();
    expect(after.items.length).toBe(before + 2);
    expect(after.items.some((i) => i.file === 'src/more.ts')).toBe(true);
  });

  it('returns an empty list for an unknown symbol and a syntax error for a broken file outline', async () => {
    const tool = createCodeNavTool({ workspaceRoot: ws.root });
    const none = await tool.handler({ action: 'find_definition', path: '.', symbol: 'Nope' }, { signal, callId: '1' });
    expect(none).toEqual({ success: true, items: [] });
    ws.write('src/bad.ts', 'export function (\n');
    const bad = await tool.handler({ action: 'outline', path: 'src/bad.ts' }, { signal, callId: '2' });
    expect(bad).toMatchObject({ success: false, error_code: 'syntax_error' });
  });
});
