import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { type Fixture, useFixture, WALK_FIXTURE_FILES } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import type { ListDirectoryOptions } from './list-directory.js';
import type { WalkEntry, WalkSummary } from './walk.js';

let f: Fixture;
useFixture(WALK_FIXTURE_FILES, (made) => {
  f = made;
});

/** What a non-recursive, names-only walk of `dir` yields, for comparison. */
async function walked(dir: string, options: ListDirectoryOptions) {
  const it = f.ws.walk(dir, { ...options, recursive: false, details: false });
  const entries: WalkEntry[] = [];
  for (;;) {
    const step = await it.next();
    if (step.done) return { entries, summary: step.value as WalkSummary };
    entries.push(step.value);
  }
}

describe('listDirectory', () => {
  const cases: [string, string, ListDirectoryOptions][] = [
    ['the root', '.', {}],
    ['a subdirectory with its own .gitignore', 'keep', {}],
    ['files only', '.', { filesOnly: true }],
    ['without gitignore, hidden files left out', '.', { gitignore: false, includeHidden: false }],
    ['a capped listing', '.', { maxEntries: 2 }],
    ['a directory with a protected file, a link and a pipe', 'a', {}],
  ];
  it.each(cases)('answers %s exactly as the walk does', async (_name, dir, options) => {
    symlinkSync(f.path('b.txt'), f.path('a/link.txt'));
    execFileSync('mkfifo', [f.path('a/pipe')]);
    const listing = await f.ws.listDirectory(dir, options);
    if (!listing.success) throw new Error(listing.error);
    const walk = await walked(dir, options);
    expect(listing.entries).toEqual(walk.entries);
    expect(listing.summary).toEqual(walk.summary);
    expect(listing.relative).toBe(dir);
    expect(listing.path).toBe(f.path(dir === '.' ? '' : dir).replace(/\/$/, ''));
  });

  it('answers every spelling and link layout exactly as the component walk does', async () => {
    // listDirectory proves a plain path by its open descriptor instead of walking it; the walk still checks each
    // component, so any difference between the two answers is a hole in the shortcut.
    mkdirSync(f.path('real/sub/deep'), { recursive: true });
    mkdirSync(f.path('.ssh'));
    writeFileSync(f.path('real/sub/file.txt'), 'x');
    symlinkSync(f.path('real'), f.path('inlink'));
    symlinkSync(f.outside, f.path('outlink'));
    symlinkSync(f.path('real/sub'), f.path('real/final'));
    symlinkSync('loop', f.path('loop'));
    const spellings = [
      'real/sub',
      'real/sub/deep',
      'real/sub/',
      './real/sub',
      'real//sub',
      'real/./sub',
      'real/../real/sub',
      f.path('real/sub'),
      'inlink/sub',
      'inlink',
      'outlink',
      'outlink/dir',
      'real/final',
      'loop',
      'loop/x',
      'real/sub/file.txt',
      'real/sub/file.txt/x',
      'real/nope',
      'real/nope/x',
      '.env',
      '.ssh',
      '.git',
      ' ',
      'real/sub\0',
    ];
    for (const dir of spellings) {
      const listing = await f.ws.listDirectory(dir);
      let walk: Awaited<ReturnType<typeof walked>> | undefined;
      let refused: string | undefined;
      try {
        walk = await walked(dir, {});
      } catch (error) {
        refused = (error as { failure?: { error_code: string } }).failure?.error_code ?? String(error);
      }
      if (refused !== undefined) {
        expect(listing, dir).toMatchObject({ success: false, error_code: refused });
        continue;
      }
      if (!listing.success) throw new Error(`${dir}: ${listing.error}`);
      expect(listing.entries, dir).toEqual(walk?.entries);
      expect(listing.summary, dir).toEqual(walk?.summary);
    }
  });

  it.runIf(process.platform === 'linux')(
    'leaves no descriptor open, whether the listing succeeds or is refused',
    async () => {
      mkdirSync(f.path('real/sub'), { recursive: true });
      symlinkSync(f.outside, f.path('outlink'));
      const open = () => readdirSync('/proc/self/fd').length;
      await f.ws.listDirectory('real/sub');
      const before = open();
      for (let i = 0; i < 50; i++) {
        for (const dir of ['real/sub', 'real', 'outlink', 'outlink/dir', 'missing', 'b.txt', '.env']) {
          await f.ws.listDirectory(dir);
        }
      }
      expect(open()).toBe(before);
    },
  );

  it('returns the gate failure instead of throwing', async () => {
    expect(await f.ws.listDirectory('../')).toMatchObject({ success: false, error_code: 'outside_workspace' });
    expect(await f.ws.listDirectory('b.txt')).toMatchObject({ success: false, error_code: 'not_a_directory' });
    expect(await f.ws.listDirectory('.env')).toMatchObject({ success: false, error_code: 'protected_path' });
    expect(await f.ws.listDirectory('missing')).toMatchObject({ success: false, error_code: 'not_found' });
  });

  it('stops at once when the signal is already aborted', async () => {
    const listing = await f.ws.listDirectory('.', { signal: AbortSignal.abort() });
    if (!listing.success) throw new Error(listing.error);
    expect(listing.entries).toEqual([]);
    expect(listing.summary).toMatchObject({ aborted: true, truncated: true });
  });
});
