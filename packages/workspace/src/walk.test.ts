import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { CANARY, type Fixture, useFixture, WALK_FIXTURE_FILES } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { type WalkEntry, type WalkOptions, type WalkSummary, WorkspaceError } from './walk.js';

let f: Fixture;
useFixture(WALK_FIXTURE_FILES, (made) => {
  f = made;
});

async function collect(dir: string, options: WalkOptions = {}) {
  const it = f.ws.walk(dir, options);
  const entries: WalkEntry[] = [];
  for (;;) {
    const step = await it.next();
    if (step.done) return { entries, names: entries.map((e) => e.relative), summary: step.value as WalkSummary };
    entries.push(step.value);
  }
}

describe('walk', () => {
  it('with details: false yields the same names and kinds without sizes, and still skips links', async () => {
    symlinkSync(f.path('b.txt'), f.path('a/link.txt'));
    execFileSync('mkfifo', [f.path('a/pipe')]);
    const full = await collect('.');
    const light = await collect('.', { details: false });
    expect(light.entries.map((e) => [e.relative, e.kind])).toEqual(full.entries.map((e) => [e.relative, e.kind]));
    expect(light.summary).toEqual(full.summary);
    expect(light.summary.skipped).toMatchObject({ links: 1, special: 1 });
    expect(light.entries.every((e) => e.size === undefined && e.mtimeMs === undefined)).toBe(true);
  });

  it('is depth-first, name-sorted, honours nested gitignore and skips .git and protected names', async () => {
    const { names, summary, entries } = await collect('.');
    expect(names).toEqual([
      '.gitignore',
      '.hidden',
      'a',
      'a/y',
      'a/y/x.ts',
      'a/z.ts',
      'b.txt',
      'keep',
      'keep/.gitignore',
      'keep/important.tmp',
    ]);
    expect(summary.skipped).toMatchObject({ protected: 2, ignored: 4 });
    expect(summary).toMatchObject({ entries: 10, truncated: false });
    expect(entries.find((e) => e.relative === 'b.txt')).toMatchObject({ kind: 'file', size: 1, path: f.path('b.txt') });
    expect(JSON.stringify(entries)).not.toContain(CANARY);
  });

  it('lists everything but .git-protected names when gitignore is off; hidden can be excluded', async () => {
    const all = await collect('.', { gitignore: false });
    expect(all.names).toContain('node_modules/pkg/index.js');
    expect(all.names).toContain('.git/HEAD');
    expect(all.names).not.toContain('.env');
    const visible = await collect('.', { includeHidden: false, filesOnly: true });
    expect(visible.names).toEqual(['a/y/x.ts', 'a/z.ts', 'b.txt', 'keep/important.tmp']);
    expect(visible.summary.skipped.hidden).toBeGreaterThan(0);
  });

  it('non-recursive lists one level; an explicitly named ignored directory is listed', async () => {
    expect((await collect('a', { recursive: false })).names).toEqual(['a/y', 'a/z.ts']);
    expect((await collect('node_modules')).names).toEqual(['node_modules/pkg', 'node_modules/pkg/index.js']);
  });

  it('never follows links (inside or out) and counts them; special files are counted too', async () => {
    symlinkSync(f.outside, f.path('a/evil'));
    symlinkSync('..', f.path('a/loop'));
    symlinkSync('b.txt', f.path('blink'));
    execFileSync('mkfifo', [f.path('a/pipe')]);
    const { names, summary } = await collect('.');
    expect(names.some((n) => n.includes('evil') || n.includes('loop') || n === 'blink' || n.includes('pipe'))).toBe(
      false,
    );
    expect(summary.skipped).toMatchObject({ links: 3, special: 1 });
  });

  it('caps entries and reports truncation', async () => {
    const { names, summary } = await collect('.', { maxEntries: 3 });
    expect(names).toHaveLength(3);
    expect(summary.truncated).toBe(true);
    expect(summary.skipped.capped).toBeGreaterThan(0);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const it = f.ws.walk('.', { signal: controller.signal });
    await it.next();
    controller.abort();
    let step = await it.next();
    while (!step.done) step = await it.next();
    expect(step.value).toMatchObject({ aborted: true, truncated: true });
  });

  it('refuses a start outside, through a link, or on a file, with the workspace failure', async () => {
    symlinkSync(f.outside, f.path('evil'));
    for (const [dir, code] of [
      ['../ws-evil', 'outside_workspace'],
      ['evil', 'symlink_rejected'],
      ['evil/dir', 'outside_workspace'],
      ['b.txt', 'not_a_directory'],
      ['/proc/self', 'outside_workspace'],
    ] as const) {
      const error = await collect(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorkspaceError);
      expect((error as WorkspaceError).failure.error_code).toBe(code);
    }
  });

  it('keeps name order, skip counts and the cap in a directory larger than the lstat window', async () => {
    mkdirSync(f.path('big'));
    const names: string[] = [];
    for (let i = 0; i < 150; i++) {
      const name = `big/f${String(i).padStart(3, '0')}.txt`;
      writeFileSync(f.path(name), String(i));
      names.push(name);
      if (i % 10 === 0) symlinkSync(f.outside, f.path(`big/l${String(i).padStart(3, '0')}`));
      if (i % 25 === 0) writeFileSync(f.path(`big/f${String(i).padStart(3, '0')}.pem`), 'secret');
    }
    const all = await collect('big', { recursive: false });
    expect(all.names).toEqual(names);
    expect(all.summary.skipped).toMatchObject({ links: 15, protected: 6 });
    expect(all.entries.every((e, i) => e.kind === 'file' && e.size === String(i).length)).toBe(true);
    const capped = await collect('big', { recursive: false, maxEntries: 40 });
    expect(capped.names).toEqual(names.slice(0, 40));
    expect(capped.summary.truncated).toBe(true);
    expect(capped.summary.skipped.capped).toBeGreaterThan(0);
  });
});
