import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { handleCodeNav } from './handle-nav.js';

// The project sees TypeScript's standard library: an element of an array or the value of a promise has its type only
// when `Array` and `Promise` are known, so a method called on one is a reference only then.
const BOX = [
  'export class Box {',
  '  size(): number { return 1; }',
  '}',
  'const boxes = [new Box()];',
  'export const sizes = boxes.map((b) => b.size());',
  'export const later = Promise.resolve(new Box()).then((b) => b.size());',
  'export const first = boxes.find((b) => b.size() > 0);',
  '',
].join('\n');

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'box.ts': BOX });
});
afterEach(() => ws.cleanup());

it('finds a method called through Array.prototype.map, Promise.then and Array.prototype.find', async () => {
  const found = await handleCodeNav(
    { action: 'find_references', path: 'box.ts', symbol: 'size' },
    { workspaceRoot: ws.root },
  );
  expect(found.success).toBe(true);
  expect(found.items.map((item) => `${item.kind} ${item.line}`)).toEqual([
    'definition 2',
    'reference 5',
    'reference 6',
    'reference 7',
  ]);
});

const found = async () =>
  (
    await handleCodeNav({ action: 'find_references', path: 'box.ts', symbol: 'size' }, { workspaceRoot: ws.root })
  ).items.map((item) => `${item.kind} ${item.line}`);

it('takes the library a tsconfig.json names: ES5 knows Array.prototype.map, not Promise nor Array.prototype.find', async () => {
  writeFileSync(join(ws.root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { lib: ['es5'] } }));
  expect(await found()).toEqual(['definition 2', 'reference 5']);
});

it('with noLib no library type is known, so only the definition is found', async () => {
  writeFileSync(join(ws.root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { noLib: true } }));
  expect(await found()).toEqual(['definition 2']);
});
