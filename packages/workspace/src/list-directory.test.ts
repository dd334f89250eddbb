import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
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
