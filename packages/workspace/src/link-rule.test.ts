import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PathIntent } from './resolved-path.js';
import { Workspace } from './workspace.js';

describe('WorkspaceOptions.linkRule', () => {
  let base: string;
  let root: string;
  let asked: [string, PathIntent][];
  const rule = (real: string, intent: PathIntent) => {
    asked.push([real, intent]);
    return real.startsWith('secrets/') ? 'which the rule refuses' : undefined;
  };
  beforeEach(() => {
    asked = [];
    base = realpathSync(mkdtempSync(join(tmpdir(), 'link-rule-')));
    root = join(base, 'ws');
    mkdirSync(join(root, 'secrets'), { recursive: true });
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'secrets', 'key'), 'k');
    writeFileSync(join(root, 'docs', 'a.md'), 'a');
    symlinkSync(join(root, 'secrets'), join(root, 'public'));
    symlinkSync('docs', join(root, 'notes'));
    symlinkSync(root, join(base, 'alias'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('refuses a path whose link leads where the rule says no, for every operation', async () => {
    const ws = await Workspace.open(root, { linkRule: rule });
    expect(await ws.resolve('public/key', 'read')).toMatchObject({
      success: false,
      error_code: 'denied',
      error: expect.stringContaining('"secrets/key", which the rule refuses'),
    });
    expect(await ws.openRead('public/key')).toMatchObject({ error_code: 'denied' });
    expect(await ws.writeFile('public/new.txt', 'x')).toMatchObject({ error_code: 'denied' });
    expect(await ws.move('docs/a.md', 'public/a.md')).toMatchObject({ error_code: 'denied' });
    expect(await ws.resolve(join(base, 'alias', 'secrets', 'key'), 'read')).toMatchObject({
      error_code: 'denied',
    });
    expect(asked).toContainEqual(['secrets/new.txt', 'write']);
  });

  it('asks about an absolute path with no link on it too (a caller may know the root by a linked name)', async () => {
    const ws = await Workspace.open(root, { linkRule: rule });
    expect(await ws.resolve(join(root, 'secrets', 'key'), 'read')).toMatchObject({ error_code: 'denied' });
    expect(await ws.writeFile(join(root, 'secrets', 'abs.txt'), 'x')).toMatchObject({ error_code: 'denied' });
    expect(await ws.resolve(join(root, 'docs', 'a.md'), 'read')).toMatchObject({ success: true });
  });

  it('lets other links through and is not asked about a path with no link on the way', async () => {
    const ws = await Workspace.open(root, { linkRule: rule });
    expect(await ws.resolve('notes/a.md', 'read')).toMatchObject({ success: true, relative: 'docs/a.md' });
    expect(asked).toEqual([['docs/a.md', 'read']]);
    asked = [];
    expect(await ws.resolve('secrets/key', 'read')).toMatchObject({ success: true });
    expect(await ws.resolve('./secrets/../secrets/key', 'read')).toMatchObject({ success: true });
    expect(asked).toEqual([]);
    const plain = await Workspace.open(root);
    expect(await plain.resolve('public/key', 'read')).toMatchObject({ success: true, relative: 'secrets/key' });
  });
});
