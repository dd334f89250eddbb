import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';
import type { EditorLimits } from './limits.js';
import type { EditorInput } from './schema.js';

// `sha256` is reported for content up to `hashMaxBytes` and left out (not computed) above it, on every path.
const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');
const STREAM: Partial<EditorLimits> = { streamEditMinBytes: 0, verifyBytesMax: 0, streamChunkBytes: 1 };

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const call = (req: unknown, limits: Partial<EditorLimits> = {}) =>
  handleEditor(req as EditorInput, { workspaceRoot: ws.root, limits }) as Promise<Record<string, unknown>>;
const edit = (from: string, to: string) => ({ action: 'edit', file_path: 'f.txt', old_string: from, new_string: to });

/** Edits `content` of f.txt with `limits`, checks the bytes on disk, and returns the response. */
async function editOnce(content: string, limits: Partial<EditorLimits>) {
  ws.write('f.txt', content);
  const out = await call(edit('TARGET', 'CHANGED!'), limits);
  expect(out.success).toBe(true);
  expect(readFileSync(ws.path('f.txt'), 'utf8')).toBe(content.replace('TARGET', 'CHANGED!'));
  return out;
}

describe('hashMaxBytes', () => {
  const text = `${'line of text\n'.repeat(40)}the TARGET is here\n${'more text\n'.repeat(40)}`;
  const outputBytes = Buffer.byteLength(text) + 2;
  const paths: Array<[string, Partial<EditorLimits>, string]> = [
    ['streamed', STREAM, text],
    ['byte', {}, text],
    ['text (CRLF)', {}, text.replaceAll('\n', '\r\n')],
  ];

  for (const [name, limits, content] of paths) {
    it(`${name} path: a sha256 of the disk bytes up to the limit, none above it`, async () => {
      const size = Buffer.byteLength(content) + 2;
      const at = await editOnce(content, { ...limits, hashMaxBytes: size });
      expect(at.sha256).toBe(sha(readFileSync(ws.path('f.txt'))));
      const over = await editOnce(content, { ...limits, hashMaxBytes: size - 1 });
      expect(over).not.toHaveProperty('sha256');
      expect(over).toMatchObject({ bytes: size, replacements: 1 });
    });
  }

  it('streamed and whole-file responses match apart from the hash when it is left out', async () => {
    const streamed = await editOnce(text, { ...STREAM, hashMaxBytes: outputBytes - 1 });
    const whole = await editOnce(text, { hashMaxBytes: outputBytes - 1 });
    expect(streamed).toEqual(whole);
  });

  it('write: a sha256 up to the limit, none above it', async () => {
    const content = 'hello world\n';
    const at = await call({ action: 'write', file_path: 'w.txt', content }, { hashMaxBytes: 12 });
    expect(at.sha256).toBe(sha(Buffer.from(content)));
    const over = await call({ action: 'write', file_path: 'w.txt', content }, { hashMaxBytes: 11 });
    expect(over).toMatchObject({ success: true, bytes: 12 });
    expect(over).not.toHaveProperty('sha256');
  });

  it('a real streamed edit of a 9 MiB file leaves the hash out by default and reports it when asked', async () => {
    const line = 'a line of ordinary text, long enough to fill a big file quickly\n';
    const half = line.repeat(Math.ceil((9 * 1024 * 1024) / line.length / 2));
    const content = `${half}the TARGET line\n${half}`;
    const plain = await editOnce(content, {});
    expect(plain).not.toHaveProperty('sha256');
    expect(plain.first_line).toBe(half.length / line.length + 1);
    const hashed = await editOnce(content, { hashMaxBytes: 64 * 1024 * 1024 });
    expect(hashed.sha256).toBe(sha(readFileSync(ws.path('f.txt'))));
    const { sha256: _, ...rest } = hashed;
    expect(rest).toEqual(plain);
  });
});
