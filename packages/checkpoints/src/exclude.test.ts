// The store's `exclude` option: paths the caller keeps out are never stored, never shown in a diff or list, and never
// written by a restore, even when an earlier store without the option had stored them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createCheckpointStore } from './index.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'secrets/k': 'FIRST-CANARY\n' });
});
afterEach(() => ws.cleanup());

const open = (exclude?: (path: string) => boolean) =>
  createCheckpointStore({ root: ws.root, storeDir: join(ws.base, 'store'), ...(exclude ? { exclude } : {}) });

it('keeps excluded paths out of snapshots, diffs, lists and restores', async () => {
  // Stored once without the option, as a store opened before the caller's policy named the path would have.
  const first = await open().snapshot();
  const store = open((path) => path.startsWith('secrets/'));
  writeFileSync(join(ws.root, 'secrets/k'), 'SECOND-CANARY\n');
  writeFileSync(join(ws.root, 'a.txt'), 'beta\n');
  const second = await store.snapshot();
  expect(second).toMatchObject({ success: true, skipped: [{ path: 'secrets/k', reason: 'excluded' }] });
  const diff = await store.diff({ from: first.success ? first.id : '', to: second.success ? second.id : '' });
  const whole = await store.diff({ from: first.success ? first.id : '' });
  expect(JSON.stringify(whole), JSON.stringify(whole)).not.toMatch(/CANARY/);
  expect(JSON.stringify(diff)).toMatch(/beta/);
  expect(JSON.stringify(diff)).not.toMatch(/CANARY|secrets/);
  const list = await store.list();
  expect(JSON.stringify(list)).not.toMatch(/secrets/);
  const restore = await store.restore({ to: first.success ? first.id : '', force: true });
  expect(restore).toMatchObject({ success: true });
  expect(readFileSync(join(ws.root, 'a.txt'), 'utf8')).toBe('alpha\n');
  expect(readFileSync(join(ws.root, 'secrets/k'), 'utf8')).toBe('SECOND-CANARY\n');
});
