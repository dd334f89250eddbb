import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkedPathSync, rootRelative } from './linked-path.js';

describe('linkedPathSync', () => {
  let base: string;
  let root: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'linked-')));
    root = join(base, 'ws');
    mkdirSync(join(root, 'secrets', 'deep'), { recursive: true });
    mkdirSync(join(root, 'src'));
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(root, 'secrets', 'key'), 'k');
    writeFileSync(join(root, 'src', 'a.ts'), 'a');
    symlinkSync(join(root, 'secrets'), join(root, 'public'));
    symlinkSync('secrets/key', join(root, 'key-link'));
    symlinkSync(join(base, 'outside'), join(root, 'out'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('answers undefined when no link is on the way, existing or not', () => {
    expect(linkedPathSync(root, 'src/a.ts')).toBeUndefined();
    expect(linkedPathSync(root, 'src/new.ts')).toBeUndefined();
    expect(linkedPathSync(root, 'src/new.ts', true)).toBeUndefined();
    expect(linkedPathSync(root, 'no/such/dir/x')).toBeUndefined();
    expect(linkedPathSync(root, '../ws/src/a.ts')).toBeUndefined();
  });

  it('names the real place a link on the way leads to, for existing and missing paths alike', () => {
    expect(linkedPathSync(root, 'public/key')).toBe('secrets/key');
    expect(linkedPathSync(root, 'public/new')).toBe('secrets/new');
    expect(linkedPathSync(root, 'public/new', true)).toBe('secrets/new');
    expect(linkedPathSync(root, 'public/key', true)).toBe('secrets/key');
    expect(linkedPathSync(root, 'public/deep/a/b')).toBe('secrets/deep/a/b');
    expect(linkedPathSync(root, 'public')).toBe('secrets');
    expect(linkedPathSync(root, 'key-link')).toBe('secrets/key');
  });

  it('gives the absolute real path when a link leads out of the root', () => {
    expect(linkedPathSync(root, 'out/x')).toBe(join(base, 'outside', 'x'));
  });

  it('resolves an absolute path in full: an alias of a place inside is named relative to the root', () => {
    symlinkSync(root, join(base, 'alias'));
    expect(linkedPathSync(root, join(base, 'alias', 'secrets', 'key'))).toBe('secrets/key');
    expect(linkedPathSync(root, join(base, 'alias', 'src', 'new.ts'))).toBe('src/new.ts');
    expect(linkedPathSync(root, join(root, 'public', 'key'))).toBe('secrets/key');
    expect(linkedPathSync(root, join(base, 'outside', 'x'))).toBeUndefined();
  });
});

describe('rootRelative', () => {
  it.each([
    ['src/a.ts', 'src/a.ts'],
    ['', '.'],
    ['.', '.'],
    ['./a//b/', 'a/b'],
    ['src/../secrets/k', 'secrets/k'],
    ['/ws/secrets/k', 'secrets/k'],
    ['/ws', '.'],
    ['../x', '/x'],
    ['/elsewhere/k', '/elsewhere/k'],
  ])('%j is %j under /ws', (path, expected) => {
    expect(rootRelative('/ws', path)).toBe(expected);
  });
});
