import { utimesSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, refused, searchIn } from '../test/helpers.js';
import { anchorGlob } from './find.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'old.ts': '', 'src/mid.ts': '', 'src/deep/new.ts': '', 'src/readme.md': '', 'Upper.TS': '' });
  const at = (path: string, seconds: number) => utimesSync(ws.path(path), seconds, seconds);
  at('old.ts', 1_000_000);
  at('src/mid.ts', 2_000_000);
  at('src/deep/new.ts', 3_000_000);
  at('src/readme.md', 2_500_000);
  at('Upper.TS', 1_500_000);
});
afterEach(() => ws.cleanup());

const find = (fields: Record<string, unknown>, extra = {}) => searchIn(ws, { action: 'find', ...fields }, extra);

describe('find', () => {
  it('matches a slash-free glob at any depth, newest first', async () => {
    const out = ok(await find({ pattern: '*.ts' }));
    expect(out.content.split('\n')).toEqual(['src/deep/new.ts', 'src/mid.ts', 'old.ts']);
    expect(out).toMatchObject({ count: 3, shown: 3, truncated: false });
  });

  it('anchors a glob with a slash to the searched path', async () => {
    expect(ok(await find({ pattern: 'src/*.ts' })).content).toBe('src/mid.ts');
    expect(ok(await find({ pattern: '*.ts', path: 'src/deep' })).content).toBe('src/deep/new.ts');
    expect(ok(await find({ pattern: 'deep/*.ts', path: 'src' })).content).toBe('src/deep/new.ts');
    expect(anchorGlob('./x/*.ts')).toBe('x/*.ts');
  });

  it('honours case_insensitive, include and max_results', async () => {
    expect(ok(await find({ pattern: '*.ts', case_insensitive: true })).count).toBe(4);
    expect(ok(await find({ pattern: '**/*', include: '*.md' })).content).toBe('src/readme.md');
    const capped = ok(await find({ pattern: '*', max_results: 2 }));
    expect(capped).toMatchObject({ count: 5, shown: 2, truncated: true });
    expect(capped.content.split('\n')).toEqual(['src/deep/new.ts', 'src/readme.md']);
  });

  it('skips .gitignored files unless include_ignored, lists hidden files, never .git', async () => {
    ws.write('.gitignore', 'dist/\n');
    ws.write('dist/bundle.js', '');
    ws.write('.github/ci.yml', '');
    ws.write('.git/HEAD', '');
    const normal = ok(await find({ pattern: '*' }));
    expect(normal.content).toContain('.github/ci.yml');
    expect(normal.content).not.toContain('dist/');
    expect(normal.content).not.toContain('.git/');
    const all = ok(await find({ pattern: '*', include_ignored: true }));
    expect(all.content).toContain('dist/bundle.js');
    expect(all.content).not.toContain('.git/');
  });

  it('orders by modification time across many stamping batches while the listing streams in', async () => {
    // More paths than one stamping batch, with mtimes that run against path order, so each batch matters.
    for (let i = 0; i < 700; i++) {
      const path = `many/f${String(i).padStart(3, '0')}.log`;
      ws.write(path, '');
      utimesSync(ws.path(path), 4_000_000 - i, 4_000_000 - i);
    }
    const out = ok(await find({ pattern: '*.log', max_results: 700 }, { limits: { maxResults: 1_000 } }));
    expect(out).toMatchObject({ count: 700, shown: 700 });
    expect(out.content.split('\n')).toEqual(
      Array.from({ length: 700 }, (_, i) => `many/f${String(i).padStart(3, '0')}.log`),
    );
  });

  it('says when nothing matched', async () => {
    const out = ok(await find({ pattern: '*.rs' }));
    expect(out).toMatchObject({ count: 0, content: '' });
    expect(out.note).toContain('No files');
  });

  it('stops at the count limit and reports a lower bound', async () => {
    for (let i = 0; i < 60; i++) ws.write(`bulk/f${String(i).padStart(2, '0')}.txt`, '');
    const out = ok(await find({ pattern: '*.txt', max_results: 5 }, { limits: { countLimit: 20 } }));
    expect(out).toMatchObject({ shown: 5, count: 20, count_is_lower_bound: true, truncated: true });
  });

  it('refuses a pattern that starts with "!"', async () => {
    refused(await find({ pattern: '!*.ts' }), 'invalid_glob');
    expect(ok(await find({ pattern: '-odd*' })).count).toBe(0);
  });
});
