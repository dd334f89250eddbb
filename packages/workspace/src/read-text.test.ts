import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CANARY, type Fixture, useFixture } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { readWorkspaceText } from './read-text.js';

let f: Fixture;
useFixture({ 'src/a.ts': 'export const a = 1;\n', 'empty.txt': '', '.env': 'TOKEN=1\n' }, (made) => {
  f = made;
});

describe('readWorkspaceText', () => {
  it('reads a file whole as UTF-8 with its real and relative paths', async () => {
    f.write('uni.txt', 'é ü 字\r\n');
    const read = await readWorkspaceText(f.ws, 'src/a.ts');
    expect(read).toMatchObject({ success: true, text: 'export const a = 1;\n', relative: 'src/a.ts', binary: false });
    expect(read.success && read.path).toBe(join(f.ws.root, 'src/a.ts'));
    expect(read.success && read.size).toBe(20);
    expect(await readWorkspaceText(f.ws, 'uni.txt')).toMatchObject({ text: 'é ü 字\r\n', size: 11 });
    expect(await readWorkspaceText(f.ws, 'empty.txt')).toMatchObject({
      success: true,
      text: '',
      size: 0,
      binary: false,
    });
  });

  it('reads files larger than one read step completely', async () => {
    const big = 'x'.repeat(200_000);
    f.write('big.txt', big);
    const read = await readWorkspaceText(f.ws, 'big.txt', { maxBytes: 200_000 });
    expect(read.success && read.text).toBe(big);
  });

  it('flags NUL bytes near the start as binary but still returns the content', async () => {
    f.write('blob.bin', new Uint8Array([0x41, 0x00, 0x42]));
    expect(await readWorkspaceText(f.ws, 'blob.bin')).toMatchObject({ success: true, binary: true, size: 3 });
  });

  it('refuses with the workspace codes, never leaking outside content', async () => {
    f.write('huge.txt', 'y'.repeat(100));
    symlinkSync(join(f.outside, 'secret.txt'), join(f.root, 'link.txt'));
    const cases: Array<[string, string]> = [
      ['../ws-evil/secret.txt', 'outside_workspace'],
      [join(f.outside, 'secret.txt'), 'outside_workspace'],
      ['.env', 'protected_path'],
      ['missing.ts', 'not_found'],
      ['src', 'not_a_file'],
    ];
    for (const [path, code] of cases) {
      const read = await readWorkspaceText(f.ws, path);
      expect(read, path).toMatchObject({ success: false, error_code: code });
      expect(JSON.stringify(read)).not.toContain(CANARY);
    }
    const link = await readWorkspaceText(f.ws, 'link.txt');
    expect(link.success).not.toBe(true);
    expect(JSON.stringify(link)).not.toContain(CANARY);
    expect(await readWorkspaceText(f.ws, 'huge.txt', { maxBytes: 10 })).toMatchObject({ error_code: 'too_large' });
  });
});
