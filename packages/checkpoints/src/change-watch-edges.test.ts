import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeWatch, fitsCommandLine, foreignMount, MAX_TOUCHED_BYTES } from './internal/change-watch.js';

// The watch's edges, driven directly: each case is one where answering "nothing changed" (or a narrowed list) would let
// a checkpoint miss a change, so the watch must answer undefined (check everything) instead.
const linux = process.platform === 'linux';
const HEAD = 'h1';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bough-watch-'));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'out'));
  writeFileSync(join(root, '.gitignore'), 'out/\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const none = async (): Promise<ReadonlySet<string>> => new Set();

/** A watch past its first check (which never sets watchers up) and its second (which does), armed at HEAD. */
async function armed(ignored: () => Promise<ReadonlySet<string>> = none): Promise<ChangeWatch> {
  const watch = new ChangeWatch(root, 100);
  expect(await watch.take(undefined, ignored)).toBeUndefined();
  watch.matched(HEAD);
  expect(await watch.take(HEAD, ignored)).toBeUndefined();
  watch.matched(HEAD);
  return watch;
}

describe.runIf(linux)('change watch edges', () => {
  it('an armed watch with no change answers nothing; an edit is named', async () => {
    const watch = await armed();
    expect(await watch.take(HEAD, none)).toEqual([]);
    watch.matched(HEAD);
    writeFileSync(join(root, 'src/a.txt'), 'a\n');
    expect(await watch.take(HEAD, none)).toEqual(['src/a.txt']);
  });

  it('a .gitignore edit while the ignored folders are listed leaves no folder unwatched', async () => {
    // The first listing answers with the old rules while the file changes under it, as a slow `git ls-files` would.
    let calls = 0;
    const ignored = async (): Promise<ReadonlySet<string>> => {
      calls += 1;
      if (calls > 1) return new Set();
      writeFileSync(join(root, '.gitignore'), '');
      return new Set(['out/']);
    };
    const watch = await armed(ignored);
    writeFileSync(join(root, 'out/x.txt'), 'x\n');
    expect(await watch.take(HEAD, ignored)).toBeUndefined();
    watch.matched(HEAD);
    writeFileSync(join(root, 'out/x.txt'), 'y\n');
    expect(await watch.take(HEAD, ignored)).toEqual(['out/x.txt']);
  });

  it('an event naming only .git (a nested repository made) means a full check, not "nothing changed"', async () => {
    const watch = await armed();
    mkdirSync(join(root, 'src/.git'));
    expect(await watch.take(HEAD, none)).toBeUndefined();
  });

  it('more path bytes than one command line should carry means a full check', async () => {
    const watch = await armed();
    const long = 'n'.repeat(240);
    const count = Math.ceil(MAX_TOUCHED_BYTES / (long.length + 8)) + 10;
    for (let i = 0; i < count; i++) writeFileSync(join(root, `src/${long}${i}`), '');
    expect(count).toBeLessThan(1_000); // under the path count limit: only the bytes decide
    expect(await watch.take(HEAD, none)).toBeUndefined();
    expect(fitsCommandLine([`src/${long}`])).toBe(true);
  });

  it('a folder on another file system than the root stops the watch', async () => {
    expect(foreignMount(1, 1)).toBe(false);
    expect(foreignMount(1, 2)).toBe(true);
    expect(foreignMount(undefined, 1)).toBe(true);
  });

  // A real mount inside the workspace needs root and a working `mount`; where either is missing the case is skipped.
  const canMount = (() => {
    if (!linux || process.getuid?.() !== 0) return false;
    const probe = mkdtempSync(join(tmpdir(), 'bough-mount-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', 'none', probe], { stdio: 'ignore' });
      execFileSync('umount', [probe], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
  })();

  it.runIf(canMount)(
    'a mount inside the workspace (tmpfs) turns the watch off: every check is a full one',
    async () => {
      execFileSync('mount', ['-t', 'tmpfs', 'none', join(root, 'src')]);
      try {
        const watch = await armed();
        expect(await watch.take(HEAD, none)).toBeUndefined();
        watch.matched(HEAD);
        expect(await watch.take(HEAD, none)).toBeUndefined();
      } finally {
        execFileSync('umount', [join(root, 'src')]);
      }
    },
  );
});
