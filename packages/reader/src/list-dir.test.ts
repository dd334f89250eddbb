import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleReader } from './index.js';

type Listing = {
  success: boolean;
  entries: string[];
  skipped: Record<string, number>;
  truncated: boolean;
  notice: string;
};

describe('reader list_dir', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({
      'b.ts': '',
      'A.md': '',
      'src/z.TS': '',
      'src/y.js': '',
      'src/deep/x.ts': '',
      '.env': 'TOKEN=1',
      'dist/out.js': '',
      '.gitignore': 'dist/\n',
    });
  });
  afterEach(() => ws.cleanup());
  const list = async (req: Record<string, unknown>, limits = {}) =>
    (await handleReader({ action: 'list_dir', path: '.', ...req }, { workspaceRoot: ws.root, limits })) as Listing;

  it('lists one level, sorted, directories marked, protected and ignored entries counted not shown', async () => {
    const out = await list({});
    expect(out.entries).toEqual(['.gitignore', 'A.md', 'b.ts', 'src/']);
    expect(out.skipped).toMatchObject({ protected: 1, ignored: 1 });
    expect(out.notice).toMatch(/1 protected/);
    expect(JSON.stringify(out)).not.toContain('TOKEN');
  });

  it('lists recursively with workspace-relative paths', async () => {
    const out = await list({ recursive: true });
    expect(out.entries).toEqual([
      '.gitignore',
      'A.md',
      'b.ts',
      'src/',
      'src/deep/',
      'src/deep/x.ts',
      'src/y.js',
      'src/z.TS',
    ]);
    const sub = await list({ path: 'src', recursive: false });
    expect(sub.entries).toEqual(['src/deep/', 'src/y.js', 'src/z.TS']);
  });

  it('filters by extension with or without a dot, case-insensitively, files only', async () => {
    const out = await list({ recursive: true, file_types: ['.ts', 'MD'] });
    expect(out.entries).toEqual(['A.md', 'b.ts', 'src/deep/x.ts', 'src/z.TS']);
  });

  it('caps the listing and says how many were left out', async () => {
    for (let i = 0; i < 30; i++) ws.write(`many/f${String(i).padStart(2, '0')}.txt`, '');
    const out = await list({ path: 'many' }, { maxListEntries: 10 });
    expect(out.entries).toHaveLength(10);
    expect(out.entries[0]).toBe('many/f00.txt');
    expect(out).toMatchObject({ truncated: true, skipped: { capped: 20 } });
    expect(out.notice).toMatch(/cut at 10/);
  });

  it('never lists through links and counts them; refuses link and outside starts', async () => {
    symlinkSync(ws.outside, ws.path('out'));
    symlinkSync(ws.path('b.ts'), ws.path('b-link.ts'));
    execFileSync('mkfifo', [ws.path('pipe')]);
    const out = await list({ recursive: true });
    expect(out.entries.some((e) => e.startsWith('out') || e.includes('b-link') || e === 'pipe')).toBe(false);
    expect(out.skipped).toMatchObject({ links: 2, special: 1 });
    expect(JSON.stringify(out)).not.toContain('secret');
    for (const path of ['out', '../ws-evil', ws.outside, '/proc/self', '/']) {
      const refused = await list({ path });
      expect(refused.success, path).toBe(false);
      expect(JSON.stringify(refused)).not.toContain('secret.txt');
    }
  });

  it('takes "" and "." as the workspace root and refuses a blank path (the blank-path rule)', async () => {
    const root = await list({});
    expect(root.entries).toContain('b.ts');
    expect(await list({ path: '' })).toEqual(root);
    for (const path of ['   ', '\t']) expect(await list({ path })).toMatchObject({ error_code: 'invalid_path' });
    // "" is the root only for the directory action: a file action still needs a path.
    for (const action of ['read', 'stat', 'open']) {
      const out = await handleReader({ action, path: '' } as never, { workspaceRoot: ws.root });
      expect(out, action).toMatchObject({ success: false, error_code: 'invalid_request' });
    }
  });

  it('refuses a file path with the workspace code', async () => {
    expect(await list({ path: 'b.ts' })).toMatchObject({ error_code: 'not_a_directory' });
  });
});
