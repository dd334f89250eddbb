import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, refused, searchIn } from '../test/helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({
    'b.ts': 'const b = 1;\nneedle in b\n',
    'a.ts': 'needle first\nnothing\nNEEDLE upper\n',
    'src/c.py': 'def needle():\n    pass\n',
    'src/d.ts': 'needle d\n',
  });
});
afterEach(() => ws.cleanup());

const grep = (fields: Record<string, unknown>, extra = {}) =>
  searchIn(ws, { action: 'grep', pattern: 'needle', ...fields }, extra);

describe('grep', () => {
  it('returns path:line:text sorted by path, then line', async () => {
    const out = ok(await grep({}));
    expect(out.content.split('\n')).toEqual([
      'a.ts:1:needle first',
      'b.ts:2:needle in b',
      'src/c.py:1:def needle():',
      'src/d.ts:1:needle d',
    ]);
    expect(out).toMatchObject({ count: 4, shown: 4, truncated: false, count_is_lower_bound: false, timed_out: false });
  });

  it('treats no match as an empty success that says what was not searched', async () => {
    const out = ok(await grep({ pattern: 'absent-word' }));
    expect(out).toMatchObject({ count: 0, shown: 0, content: '' });
    expect(out.note).toContain('include_ignored');
  });

  it('supports case_insensitive, fixed_strings, include and path', async () => {
    expect(ok(await grep({ case_insensitive: true, path: 'a.ts' })).count).toBe(2);
    expect(ok(await grep({ pattern: 'def needle(', fixed_strings: true })).content).toBe('src/c.py:1:def needle():');
    expect(ok(await grep({ include: '*.py' })).content).toBe('src/c.py:1:def needle():');
    expect(ok(await grep({ path: 'src' })).content.split('\n')).toEqual([
      'src/c.py:1:def needle():',
      'src/d.ts:1:needle d',
    ]);
    expect(ok(await grep({ path: 'src/d.ts' })).content).toBe('src/d.ts:1:needle d');
    expect(ok(await grep({ path: ws.path('src') })).count).toBe(2);
  });

  it('refuses an invalid regex with a typed failure that points to fixed_strings', async () => {
    for (const pattern of ['(', '[a-', 'a{2', 'line\nbreak']) {
      const out = await grep({ pattern });
      refused(out, 'invalid_pattern');
      expect(JSON.stringify(out)).toContain('fixed_strings');
    }
  });

  it('respects .gitignore unless include_ignored, searches hidden files but never .git', async () => {
    ws.write('.gitignore', 'build/\n');
    ws.write('build/out.ts', 'needle built\n');
    ws.write('.config/settings.ts', 'needle hidden\n');
    ws.write('.git/config', 'needle in git\n');
    const normal = ok(await grep({}));
    expect(normal.content).toContain('.config/settings.ts:1:needle hidden');
    expect(normal.content).not.toContain('build/');
    expect(normal.content).not.toContain('.git/');
    expect(normal.skipped.ignored_files).toBe('excluded');
    const all = ok(await grep({ include_ignored: true }));
    expect(all.content).toContain('build/out.ts:1:needle built');
    expect(all.content).not.toContain('.git/');
    expect(all.skipped.ignored_files).toBe('included');
  });

  it('cuts long lines with a marker and counts them', async () => {
    ws.write('long.js', `${'x'.repeat(5_000)}needle${'y'.repeat(5_000)}\n${'é'.repeat(600)}needle\n`);
    const out = ok(await grep({ path: 'long.js' }));
    const [first, second] = out.content.split('\n');
    expect(first?.length).toBeLessThan(500);
    expect(first).toMatch(/… \[line cut at 400 chars\]$/);
    expect(second).toMatch(/^long\.js:2:é+ … \[line cut at 400 chars\]$/);
    expect(second).not.toContain('\uFFFD');
    expect(out.skipped.long_lines).toBe(2);
  });

  it('counts every match below the count limit and shows max_results of them', async () => {
    ws.write('many.txt', 'needle\n'.repeat(500));
    const out = ok(await grep({ path: 'many.txt', max_results: 10 }));
    expect(out).toMatchObject({ count: 500, shown: 10, truncated: true, count_is_lower_bound: false });
    expect(out.note).toContain('Showing 10 of 500');
  });

  it('stops early on a huge match count and says the count is a lower bound', async () => {
    ws.write('huge.txt', 'needle\n'.repeat(200_000));
    const out = ok(await grep({ max_results: 5 }, { limits: { countLimit: 1_000 } }));
    expect(out.shown).toBe(5);
    expect(out.count).toBeGreaterThanOrEqual(1_000);
    expect(out.count).toBeLessThan(200_000);
    expect(out).toMatchObject({ truncated: true, count_is_lower_bound: true });
    expect(out.content.length).toBeLessThan(1_000);
  });

  it('returns partial results with timed_out when the time budget runs out', async () => {
    // A stand-in ripgrep that prints one match (with the byte offset grep asks for) and then hangs with a child
    // holding the pipe.
    const fake = join(ws.base, 'slow-rg.sh');
    writeFileSync(fake, "#!/bin/sh\nprintf 'a.ts\\0001:0:needle first\\n'\nsleep 60 &\nsleep 60\n");
    chmodSync(fake, 0o755);
    const out = ok(await grep({}, { rgPath: fake, limits: { timeoutMs: 500 } }));
    expect(out).toMatchObject({
      timed_out: true,
      count_is_lower_bound: true,
      count: 1,
      content: 'a.ts:1:needle first',
    });
    expect(out.note).toContain('500 ms');
  }, 20_000);

  it('reports matches in binary files without showing their bytes', async () => {
    ws.write('blob.bin', Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1, 2, 0x0a]));
    const out = ok(await grep({ path: 'blob.bin' }));
    expect(out.content).toBe('');
    expect(out.note).toContain('binary');
  });

  it('escapes control characters in file names so each result stays on one line', async () => {
    ws.write('odd\nname.txt', 'needle odd\n');
    const out = ok(await grep({ pattern: 'needle odd' }));
    expect(out.content).toBe('odd\\x0aname.txt:1:needle odd');
  });
});
