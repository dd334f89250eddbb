import { chmodSync, linkSync, lstatSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CANARY, type Fixture, useFixture } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { Workspace } from './workspace.js';

let f: Fixture;
const hooks = useFixture({ 'a.txt': 'old\n', 'src/b.ts': 'B' }, (made) => {
  f = made;
});

const temps = () => readdirSync(f.root).filter((n) => n.endsWith('.tmp'));

describe('replaceFile', () => {
  it('assembles pieces written out of order and in parallel, then renames over the file keeping its mode', async () => {
    chmodSync(f.path('a.txt'), 0o640);
    const ino = lstatSync(f.path('a.txt')).ino;
    const r = await f.ws.replaceFile('a.txt', async (sink) => {
      await Promise.all([
        sink.write(Buffer.from('world\n'), 6),
        sink.write(Buffer.from('hello '), 0),
        sink.write(new Uint8Array(0), 3),
      ]);
      return true;
    });
    expect(r).toMatchObject({
      success: true,
      created: false,
      bytes: 12,
      relative: 'a.txt',
      path: f.path('a.txt'),
    });
    expect(readFileSync(f.path('a.txt'), 'utf8')).toBe('hello world\n');
    const st = lstatSync(f.path('a.txt'));
    expect(st.mode & 0o7777).toBe(0o640);
    expect(st.ino).not.toBe(ino);
    expect(temps()).toEqual([]);
  });

  it('waits for writes the filler did not await before making the file durable', async () => {
    const big = Buffer.alloc(4 * 1024 * 1024, 0x61);
    const r = await f.ws.replaceFile('a.txt', async (sink) => {
      void sink.write(big, 0);
      return true;
    });
    expect(r).toMatchObject({ success: true, bytes: big.length });
    expect(readFileSync(f.path('a.txt')).equals(big)).toBe(true);
  });

  it('keeps every piece when background data syncs run between writes', async () => {
    const stepped = await Workspace.open(f.root, { limits: { replaceSyncStepBytes: 1000 } });
    const piece = (i: number) => Buffer.alloc(700, 97 + (i % 26));
    const r = await stepped.replaceFile('a.txt', async (sink) => {
      const pending: Array<Promise<void>> = [];
      for (let i = 0; i < 40; i++) {
        pending.push(sink.write(piece(i), i * 700));
        if (i % 3 === 0) await Promise.all(pending);
      }
      await Promise.all(pending);
      return true;
    });
    expect(r).toMatchObject({ success: true, bytes: 28_000 });
    const expected = Buffer.concat(Array.from({ length: 40 }, (_, i) => piece(i)));
    expect(readFileSync(f.path('a.txt')).equals(expected)).toBe(true);
    expect(temps()).toEqual([]);
  });

  it('leaves the file and no temp file behind when the filler or confirm abandons', async () => {
    const abandoned = await f.ws.replaceFile('a.txt', async (sink) => {
      await sink.write(Buffer.from('half'), 0);
      return false;
    });
    expect(abandoned).toEqual({ success: true, abandoned: true });
    let confirmed = 0;
    const refused = await f.ws.replaceFile(
      'a.txt',
      async (sink) => {
        await sink.write(Buffer.from('whole'), 0);
        return true;
      },
      {
        confirm: async () => {
          confirmed++;
          return false;
        },
      },
    );
    expect(refused).toEqual({ success: true, abandoned: true });
    expect(confirmed).toBe(1);
    expect(readFileSync(f.path('a.txt'), 'utf8')).toBe('old\n');
    expect(temps()).toEqual([]);
  });

  it('passes a filler exception on after removing the temp file', async () => {
    await expect(
      f.ws.replaceFile('a.txt', async (sink) => {
        await sink.write(Buffer.from('x'), 0);
        throw new Error('filler broke');
      }),
    ).rejects.toThrow('filler broke');
    expect(readFileSync(f.path('a.txt'), 'utf8')).toBe('old\n');
    expect(temps()).toEqual([]);
  });

  it('refuses writes past the write limit even when the filler swallows the rejection', async () => {
    const small = await Workspace.open(f.root, { limits: { maxWriteBytes: 8 } });
    const r = await small.replaceFile('a.txt', async (sink) => {
      await sink.write(Buffer.from('12345'), 0);
      await sink.write(Buffer.from('6789'), 5).catch(() => undefined);
      return true;
    });
    expect(r).toMatchObject({ error_code: 'too_large' });
    const negative = await small.replaceFile('a.txt', async (sink) => {
      await sink.write(Buffer.from('1'), -1);
      return true;
    });
    expect(negative).toMatchObject({ error_code: 'too_large' });
    expect(readFileSync(f.path('a.txt'), 'utf8')).toBe('old\n');
    expect(temps()).toEqual([]);
  });

  it('only replaces existing regular files inside the workspace', async () => {
    const fill = async () => true;
    symlinkSync(join(f.outside, 'secret.txt'), f.path('live'));
    expect(await f.ws.replaceFile('missing.txt', fill)).toMatchObject({ error_code: 'not_found' });
    expect(await f.ws.replaceFile('src', fill)).toMatchObject({ error_code: 'not_a_file' });
    expect(await f.ws.replaceFile('live', fill)).toMatchObject({ error_code: 'symlink_rejected' });
    expect(await f.ws.replaceFile('../ws-evil/secret.txt', fill)).toMatchObject({ error_code: 'outside_workspace' });
    expect(await f.ws.replaceFile('.env', fill)).toMatchObject({ error_code: 'protected_path' });
    expect(readdirSync(f.root).sort()).toEqual(['a.txt', 'live', 'src']);
  });

  it('never modifies an outside file through a hard link', async () => {
    const outsideFile = join(f.outside, 'secret.txt');
    linkSync(outsideFile, f.path('hard.txt'));
    hooks.acceptOutside();
    const r = await f.ws.replaceFile('hard.txt', async (sink) => {
      await sink.write(Buffer.from('replaced'), 0);
      return true;
    });
    expect(r).toMatchObject({ success: true });
    expect(readFileSync(outsideFile, 'utf8')).toContain(CANARY);
    expect(readFileSync(f.path('hard.txt'), 'utf8')).toBe('replaced');
  });
});
