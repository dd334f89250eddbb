import { closeSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CANARY, type Fixture, makeFixture } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HeldParents } from './held-parents.js';

const LINUX = process.platform === 'linux';

let f: Fixture;
let before: string;
let parents: HeldParents;

beforeEach(() => {
  f = makeFixture({ 'top.txt': 'top\n', 'src/ok.txt': 'ok\n', 'src/.env': 'TOKEN=1\n', 'src/deep/x.txt': 'x\n' });
  before = f.snapshotOutside();
  parents = new HeldParents(f.ws);
});
afterEach(() => {
  parents.close();
  expect(f.snapshotOutside()).toBe(before);
  f.cleanup();
});

/** The text of `relative` opened in its held parent, or the lookup's kind when it was not held or not opened. */
async function openedText(relative: string): Promise<string> {
  const parent = await parents.parentOf(relative);
  if (parent.kind !== 'held') return parent.kind;
  const file = parent.dir.openFile(parent.name, 1 << 20);
  if (!file) return 'declined';
  try {
    return readFileSync(file.fd, 'utf8');
  } finally {
    closeSync(file.fd);
  }
}

describe('HeldParents.parentOf', () => {
  it.runIf(LINUX)('holds the real parent directory of plain paths, the root included', async () => {
    const parent = await parents.parentOf('src/deep/x.txt');
    expect(parent.kind === 'held' && { path: parent.dir.path, name: parent.name }).toEqual({
      path: join(f.root, 'src', 'deep'),
      name: 'x.txt',
    });
    expect(await openedText('top.txt')).toBe('top\n');
    expect(await openedText('src/ok.txt')).toBe('ok\n');
  });

  it('leaves paths that are not in plain form to the gate', async () => {
    for (const relative of [
      '',
      '   ',
      '../ws-evil/secret.txt',
      'src/../top.txt',
      './top.txt',
      'src//ok.txt',
      'src\\ok.txt',
      '~/x',
      'a\0b',
    ]) {
      expect((await parents.parentOf(relative)).kind, JSON.stringify(relative)).toBe('unproven');
    }
  });

  it('refuses files whose directory the gate refuses: through a link, missing, or not a directory', async () => {
    symlinkSync(f.outside, join(f.root, 'out'));
    for (const relative of ['out/secret.txt', 'out/dir/x.txt', 'missing/x.txt', 'top.txt/x.txt']) {
      expect((await parents.parentOf(relative)).kind, relative).toBe('refused');
    }
  });

  it.runIf(LINUX)('never opens a protected name or a link inside a held directory', async () => {
    symlinkSync(join(f.outside, 'secret.txt'), join(f.root, 'src', 'link.txt'));
    expect(await openedText('src/.env')).toBe('declined');
    expect(await openedText('src/link.txt')).toBe('declined');
  });

  it.runIf(LINUX)(
    'asks the gate once per directory, and a directory swapped for a link later is not followed',
    async () => {
      expect(await openedText('src/ok.txt')).toBe('ok\n');
      parents.close();
      parents = new HeldParents(f.ws, 1);
      expect((await parents.parentOf('src/ok.txt')).kind).toBe('held');
      expect((await parents.parentOf('top.txt')).kind).toBe('held'); // closes src (one held at a time)
      renameSync(join(f.root, 'src'), join(f.root, 'src-moved'));
      symlinkSync(join(f.outside, 'dir'), join(f.root, 'src'));
      // The gate's answer for src is remembered, but holding it again proves the directory and declines the link.
      const again = await parents.parentOf('src/x.txt');
      expect(again.kind).not.toBe('held');
      expect(await openedText('src/x.txt')).not.toContain(CANARY);
    },
  );

  it('answers unproven once closed, and hold gives nothing', async () => {
    parents.close();
    expect((await parents.parentOf('src/ok.txt')).kind).toBe('unproven');
    expect(parents.hold(join(f.root, 'src'))).toBeUndefined();
    parents.close();
  });
});
