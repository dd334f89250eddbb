import { lstatSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type Fixture, useFixture } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { tempFileName } from './internal/temp-name.js';

let f: Fixture;
useFixture({ 'a.txt': 'old\n' }, (made) => {
  f = made;
});

/** The name after `name` from the same prefix: what a writer who saw `name` in the directory would guess. */
function nextAfter(name: string): string {
  const match = /^\.bk-([0-9a-f]{12})([0-9a-z]+)\.tmp$/.exec(name);
  if (!match) throw new Error(`unexpected temp name ${name}`);
  return `.bk-${match[1]}${(Number.parseInt(match[2] as string, 36) + 1).toString(36)}.tmp`;
}

describe('temp file names', () => {
  it('never repeat within a process', () => {
    const names = new Set<string>();
    for (let i = 0; i < 20_000; i++) names.add(tempFileName());
    expect(names.size).toBe(20_000);
    for (const name of names) expect(name).toMatch(/^\.bk-[0-9a-f]{12}[0-9a-z]+\.tmp$/);
  });

  it('a planted link at the next name is neither followed nor a reason to fail: the write takes a fresh name', async () => {
    const guessed = nextAfter(tempFileName());
    symlinkSync(join(f.outside, 'secret.txt'), f.path(guessed));
    const r = await f.ws.writeFile('a.txt', 'new\n');
    expect(r.success).toBe(true);
    expect(readFileSync(f.path('a.txt'), 'utf8')).toBe('new\n');
    // The planted link is still a link, untouched; no temp file was left behind.
    expect(lstatSync(f.path(guessed)).isSymbolicLink()).toBe(true);
    expect(readdirSync(f.root).sort()).toEqual(['a.txt', guessed].sort());
  });

  it('after a taken name, later names come from a new prefix', async () => {
    const seen = tempFileName();
    symlinkSync(join(f.outside, 'secret.txt'), f.path(nextAfter(seen)));
    expect((await f.ws.writeFile('a.txt', 'newer\n')).success).toBe(true);
    expect(tempFileName().slice(0, 16)).not.toBe(seen.slice(0, 16));
  });
});
