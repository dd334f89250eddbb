import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { CANARY, type Fixture, makeFixture } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HeldDir } from './held-dir.js';

const LINUX = process.platform === 'linux';
const openDescriptors = () => (LINUX ? readdirSync('/proc/self/fd').length : 0);

let f: Fixture;
let before: string;
const held: HeldDir[] = [];
const hold = (dir: string) => {
  const h = f.ws.holdDirSync(dir);
  if (h) held.push(h);
  return h;
};
const contentOf = (fd: number) => {
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
};

beforeEach(() => {
  f = makeFixture({ 'a.txt': 'alpha\n', 'sub/b.txt': 'bravo\n', 'sub/.env': 'TOKEN=1\n', 'sub/id_rsa': 'KEY\n' });
  before = f.snapshotOutside();
});
afterEach(() => {
  for (const h of held.splice(0)) h.close();
  expect(f.snapshotOutside()).toBe(before);
  f.cleanup();
});

describe('Workspace.holdDirSync: which directories it holds', () => {
  it('holds the root and a real subdirectory and reports their entries without following links', () => {
    const root = hold(f.root);
    const sub = hold(f.path('sub'));
    expect(root?.path).toBe(f.root);
    expect(sub?.exact).toBe(LINUX);
    expect(root?.entry('a.txt')?.isFile()).toBe(true);
    expect(root?.entry('sub')?.isDirectory()).toBe(true);
    expect(sub?.entry('b.txt')?.size).toBe(6);
    expect(sub?.entry('missing.txt')).toBeUndefined();
    symlinkSync(join(f.outside, 'secret.txt'), f.path('sub/link.txt'));
    expect(sub?.entry('link.txt')?.isSymbolicLink()).toBe(true);
  });

  it('refuses anything that is not a normalised real directory inside the root', () => {
    symlinkSync(f.path('sub'), f.path('sub-link'));
    symlinkSync(f.outside, f.path('out'));
    mkdirSync(f.path('keys/.env'), { recursive: true });
    const refused = [
      f.outside, // a sibling sharing the root's prefix
      join(f.outside, 'dir'),
      f.base, // the root's parent
      '/',
      'sub', // relative
      '',
      `${f.root}/sub/../sub`, // not normalised
      `${f.root}/sub/`,
      `${f.root}/sub\0`,
      f.path('a.txt'), // a file
      f.path('missing'),
      f.path('sub-link'), // a final link, even to a directory inside
      f.path('keys/.env'), // a protected component
    ];
    for (const dir of refused) expect(hold(dir), dir).toBeUndefined();
    // Through an intermediate link the kernel names where the descriptor really is, which is not the path asked for.
    if (LINUX) expect(hold(f.path('out/dir'))).toBeUndefined();
  });
});

describe('HeldDir.openFile: which entries it opens', () => {
  it('opens regular files within the size limit and reads their bytes', () => {
    const sub = hold(f.path('sub'));
    const opened = sub?.openFile('b.txt', 1024);
    if (!LINUX) {
      expect(opened).toBeUndefined(); // lookups by path again: the caller falls back to openRead
      return;
    }
    expect(opened?.size).toBe(6);
    expect(contentOf(opened?.fd ?? -1)).toBe('bravo\n');
    expect(sub?.openFile('b.txt', 5)).toBeUndefined();
    const descriptors = openDescriptors();
    expect(sub?.readText('b.txt', 1024)).toBe('bravo\n');
    expect(sub?.readText('b.txt', 5)).toBeUndefined();
    expect(sub?.readText('.env', 1024)).toBeUndefined();
    expect(openDescriptors()).toBe(descriptors);
  });

  it.runIf(LINUX)('refuses links, FIFOs, directories, protected and non-plain names', () => {
    symlinkSync(join(f.outside, 'secret.txt'), f.path('sub/link.txt'));
    symlinkSync(f.path('sub/b.txt'), f.path('sub/inner-link.txt'));
    symlinkSync(f.path('sub/gone'), f.path('sub/dangling.txt'));
    execFileSync('mkfifo', [f.path('sub/pipe')]);
    mkdirSync(f.path('sub/dir'));
    const sub = hold(f.path('sub'));
    const descriptors = openDescriptors();
    for (const name of [
      'link.txt',
      'inner-link.txt',
      'dangling.txt',
      'pipe', // must not block either
      'dir',
      '.env',
      '.ENV ',
      'id_rsa',
      '',
      '.',
      '..',
      '../a.txt',
      'dir/../b.txt',
      'b.txt\0',
      `../../ws-evil/secret.txt`,
    ]) {
      expect(sub?.openFile(name, 1 << 20), JSON.stringify(name)).toBeUndefined();
      expect(sub?.readText(name, 1 << 20), JSON.stringify(name)).toBeUndefined();
    }
    expect(sub?.entry('.env')).toBeUndefined();
    expect(sub?.entry('..')).toBeUndefined();
    expect(sub?.entry('../a.txt')).toBeUndefined();
    expect(openDescriptors()).toBe(descriptors);
  });

  it.runIf(LINUX)('documents the hard-link limit: a hard link is a regular file of the directory', () => {
    linkSync(join(f.outside, 'secret.txt'), f.path('sub/hard.txt'));
    const opened = hold(f.path('sub'))?.openFile('hard.txt', 1024);
    expect(contentOf(opened?.fd ?? -1)).toBe(`${CANARY}\n`);
  });

  it('refuses everything once closed, and closing twice is harmless', () => {
    const descriptors = openDescriptors();
    const sub = f.ws.holdDirSync(f.path('sub'));
    expect(sub).toBeDefined();
    sub?.close();
    sub?.close();
    expect(sub?.entry('b.txt')).toBeUndefined();
    expect(sub?.openFile('b.txt', 1024)).toBeUndefined();
    expect(openDescriptors()).toBe(descriptors);
  });
});

describe.runIf(LINUX)('swaps after the directory is held', () => {
  it('keeps looking inside the held directory when its path is swapped for a link to outside', () => {
    mkdirSync(f.path('d'));
    writeFileSync(f.path('d/x.txt'), 'inside\n');
    const d = hold(f.path('d'));
    renameSync(f.path('d'), f.path('d-old'));
    symlinkSync(f.outside, f.path('d'));
    expect(d?.entry('secret.txt')).toBeUndefined();
    expect(d?.openFile('secret.txt', 1024)).toBeUndefined();
    expect(contentOf(d?.openFile('x.txt', 1024)?.fd ?? -1)).toBe('inside\n');
    // Holding the path again now finds the link and refuses it.
    expect(hold(f.path('d'))).toBeUndefined();
  });

  it('never opens outside bytes while another process flips the directory and a link to outside', async () => {
    const racer: ChildProcess = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
const [target, linkTo] = process.argv.slice(-2);
process.stdout.write('ready\\n');
for (;;) {
  try { fs.rmSync(target, { recursive: true, force: true }); } catch {}
  try { fs.symlinkSync(linkTo, target); } catch {}
  try { fs.rmSync(target, { recursive: true, force: true }); } catch {}
  try { fs.mkdirSync(target); fs.writeFileSync(target + '/secret.txt', 'inside'); } catch {}
}`,
        f.path('flip'),
        f.outside,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((done) => racer.stdout?.once('data', () => done()));
      const descriptors = openDescriptors();
      let opened = 0;
      for (let i = 0; i < 2000; i++) {
        const dir = f.ws.holdDirSync(f.path('flip'));
        if (!dir) continue;
        const file = dir.openFile('secret.txt', 1024);
        dir.close();
        if (!file) continue;
        opened++;
        expect(['', 'inside']).toContain(contentOf(file.fd)); // written by the racer, maybe not yet filled
      }
      expect(openDescriptors()).toBe(descriptors);
      expect(opened).toBeGreaterThanOrEqual(0); // how many land inside is up to the scheduler; none may be outside
    } finally {
      const exited = new Promise((done) => racer.once('exit', done));
      racer.kill('SIGKILL');
      await exited;
    }
  });
});
