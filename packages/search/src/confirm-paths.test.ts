// find shows a listed path only after looking its name up in its parent directory held open: the gate alone looks
// components up by path, so a directory flipping to a link out between two lookups could let an outside name pass.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, expect, it } from 'vitest';
import { confirmPaths } from './internal/confirm-paths.js';

// Flips `target` between a real directory and a link to `linkTo`, each state reached by one rename.
const RACER = `
const fs = require('node:fs');
const [target, linkTo] = process.argv.slice(-2);
fs.mkdirSync(target + '.real');
fs.mkdirSync(target + '.real/nested');
fs.writeFileSync(target + '.real/inside.txt', 'x\\n');
fs.symlinkSync(linkTo, target + '.link');
fs.renameSync(target + '.real', target);
process.stdout.write('ready\\n');
for (;;) {
  try { fs.renameSync(target, target + '.real'); fs.renameSync(target + '.link', target); } catch {}
  try { fs.renameSync(target, target + '.link'); fs.renameSync(target + '.real', target); } catch {}
}`;

let ws: TempWorkspace | undefined;
let racer: ChildProcess | undefined;

afterEach(async () => {
  if (racer && racer.exitCode === null && racer.signalCode === null) {
    const exited = new Promise<void>((done) => racer?.once('exit', () => done()));
    racer.kill('SIGKILL');
    await exited;
  }
  racer = undefined;
  ws?.cleanup();
});

it('never keeps a name from outside while a directory on its path flips to a link out', async () => {
  ws = makeWorkspace({ 'a.txt': 'x\n', 'docs/b.md': 'x\n' });
  mkdirSync(join(ws.outside, 'nested'));
  writeFileSync(join(ws.outside, 'nested', 'only-outside-name.txt'), 'x\n');
  racer = spawn(process.execPath, ['-e', RACER, ws.path('flip'), ws.outside], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((done) => racer?.stdout?.once('data', () => done()));
  const workspace = await Workspace.open(ws.root);
  const outsideName = 'flip/nested/only-outside-name.txt';
  let insideKept = 0;
  for (let i = 0; i < 4000; i++) {
    const { kept, dropped } = await confirmPaths(workspace, ['a.txt', outsideName, 'flip/inside.txt', 'docs/b.md']);
    expect(kept).not.toContain(outsideName);
    expect(kept.slice(0, 1)).toEqual(['a.txt']);
    expect(kept).toContain('docs/b.md');
    expect(kept.length + dropped).toBe(4);
    if (kept.includes('flip/inside.txt')) insideKept++;
  }
  // The inside file is shown whenever its directory is really there: the check drops only what changed.
  expect(insideKept).toBeGreaterThan(0);
}, 120_000);

it('drops links, directories, missing and protected names, and keeps order', async () => {
  ws = makeWorkspace({ 'z.txt': 'x\n', 'a.txt': 'x\n', 'dir/c.txt': 'x\n', '.env': 'SECRET=1\n' });
  const workspace = await Workspace.open(ws.root);
  const { symlinkSync } = await import('node:fs');
  symlinkSync(ws.path('a.txt'), ws.path('link.txt'));
  const out = await confirmPaths(workspace, ['z.txt', 'link.txt', 'dir', 'gone.txt', '.env', 'dir/c.txt', 'a.txt']);
  expect(out).toEqual({ kept: ['z.txt', 'dir/c.txt', 'a.txt'], dropped: 4, unchecked: 0 });
});

it('checks each directory once for its files, and still drops paths through an inside link or not in plain form', async () => {
  ws = makeWorkspace({ 'dir/a.txt': 'x\n', 'dir/b.txt': 'x\n', 'dir/sub/c.txt': 'x\n' });
  const workspace = await Workspace.open(ws.root);
  const { symlinkSync } = await import('node:fs');
  symlinkSync(ws.path('dir'), ws.path('alias'));
  const paths = ['dir/a.txt', 'alias/a.txt', 'dir/../dir/b.txt', 'dir/b.txt', './dir/a.txt', 'dir/sub/c.txt', '~/x'];
  expect(await confirmPaths(workspace, paths)).toEqual({
    kept: ['dir/a.txt', 'dir/b.txt', 'dir/sub/c.txt'],
    dropped: 4,
    unchecked: 0,
  });
});
