import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockedPathCount, lockPaths, withPathLocks } from './internal/path-locks.js';
import { Workspace } from './workspace.js';

describe('path locks', () => {
  it('serialises holders of one path in arrival order and leaves nothing behind', async () => {
    const order: string[] = [];
    const hold = (name: string) =>
      withPathLocks(['/x'], async () => {
        order.push(`${name} in`);
        await new Promise((done) => setImmediate(done));
        order.push(`${name} out`);
      });
    await Promise.all([hold('a'), hold('b'), hold('c')]);
    expect(order).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
    expect(lockedPathCount()).toBe(0);
  });

  it('takes several paths in one order, so crossed requests never wait on each other', async () => {
    const first = await lockPaths(['/b', '/a']);
    const second = lockPaths(['/a', '/b']);
    let got = false;
    void second.then(() => {
      got = true;
    });
    await new Promise((done) => setImmediate(done));
    expect(got).toBe(false);
    first();
    (await second)();
    expect(got).toBe(true);
    expect(lockedPathCount()).toBe(0);
  });

  it('releases the lock when the work throws', async () => {
    await expect(withPathLocks(['/y'], () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(lockedPathCount()).toBe(0);
  });
});

describe('mutations of one path from two Workspace objects', () => {
  let tmp: TempWorkspace;
  beforeEach(() => {
    tmp = makeWorkspace({ 'f.txt': 'one\n' });
  });
  afterEach(() => tmp.cleanup());

  it('two transactions checked against the same bytes: one commits, the other fails at verify and writes nothing', async () => {
    for (let round = 0; round < 50; round++) {
      writeFileSync(join(tmp.root, 'f.txt'), 'one\n');
      const [a, b] = [await Workspace.open(tmp.root), await Workspace.open(tmp.root)];
      const expected = Buffer.from('one\n');
      const [x, y] = await Promise.all([
        a.applyChanges([{ kind: 'replace', path: 'f.txt', data: Buffer.from('A\n'), expected }]),
        b.applyChanges([{ kind: 'replace', path: 'f.txt', data: Buffer.from('B\n'), expected }]),
      ]);
      const wins = [x, y].filter((r) => r.success);
      expect(wins).toHaveLength(1);
      const loser = (x.success ? y : x) as { error_code: string; failed_step: string };
      expect(loser).toMatchObject({ error_code: 'changed_during_check', failed_step: 'verify' });
      expect(readFileSync(join(tmp.root, 'f.txt'), 'utf8')).toBe(x.success ? 'A\n' : 'B\n');
    }
    expect(lockedPathCount()).toBe(0);
  });

  it("a write's confirm runs under the lock: false writes nothing and says the file changed", async () => {
    const ws = await Workspace.open(tmp.root);
    const out = await ws.writeFile('f.txt', 'two\n', { confirm: async () => false });
    expect(out).toMatchObject({ success: false, error_code: 'changed_during_check' });
    expect(readFileSync(join(tmp.root, 'f.txt'), 'utf8')).toBe('one\n');
  });

  it('a transaction can set the mode of what it creates and replaces', async () => {
    const ws = await Workspace.open(tmp.root);
    const done = await ws.applyChanges([
      { kind: 'create', path: 'run.sh', data: Buffer.from('#!/bin/sh\n'), mode: 0o755 },
      { kind: 'replace', path: 'f.txt', data: Buffer.from('one\n'), expected: Buffer.from('one\n'), mode: 0o700 },
    ]);
    expect(done.success).toBe(true);
    expect(statSync(join(tmp.root, 'run.sh')).mode & 0o777).toBe(0o755);
    expect(statSync(join(tmp.root, 'f.txt')).mode & 0o777).toBe(0o700);
  });
});
