import { makeWorkspace, TEST_BASE_ENV } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { OutputCapture } from './internal/output-capture.js';
import { runProcess } from './run-process.js';

const SAMPLE = 'aé€😀b日本😀€éz'.repeat(3);
const BYTES = Buffer.from(SAMPLE, 'utf8');

function capture(bytes: Buffer, maxBytes: number, chunkSize: number) {
  const output = new OutputCapture(maxBytes, 'stdout');
  for (let i = 0; i < bytes.length; i += chunkSize) output.push(bytes.subarray(i, i + chunkSize));
  return output.finish();
}

describe('OutputCapture', () => {
  it('keeps everything when the output fits', () => {
    expect(capture(BYTES, BYTES.length, 5)).toEqual({
      text: SAMPLE,
      truncated: false,
      totalBytes: BYTES.length,
      binary: false,
    });
  });

  it('never splits a character, whatever the cap and chunking', () => {
    for (const chunkSize of [1, 2, 3, 7, 1024]) {
      for (let maxBytes = 0; maxBytes < BYTES.length; maxBytes++) {
        const result = capture(BYTES, maxBytes, chunkSize);
        expect(result.truncated).toBe(true);
        expect(result.text).not.toContain('\uFFFD');
        const match = /^([\s\S]*)\n\[\.\.\. (\d+) of (\d+) bytes of stdout left out here; [^\]]*\]\n([\s\S]*)$/.exec(
          result.text,
        );
        expect(match, `cap ${maxBytes}`).not.toBeNull();
        const [, head = '', omitted = '', total = '', tail = ''] = match ?? [];
        expect(SAMPLE.startsWith(head)).toBe(true);
        expect(SAMPLE.endsWith(tail)).toBe(true);
        expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBeLessThanOrEqual(maxBytes);
        expect(Number(omitted)).toBe(BYTES.length - Buffer.byteLength(head) - Buffer.byteLength(tail));
        expect(Number(total)).toBe(BYTES.length);
        // At most one character (4 bytes) is given up on each side of the cut.
        expect(Buffer.byteLength(head)).toBeGreaterThan(Math.floor(maxBytes / 2) - 4);
      }
    }
  });

  it('holds no more than the budget plus one chunk while 64 MiB stream through', () => {
    const output = new OutputCapture(100_000, 'stdout');
    const chunk = Buffer.alloc(65_536, 0x61);
    let peak = 0;
    for (let i = 0; i < 1024; i++) {
      output.push(chunk);
      peak = Math.max(peak, output.retainedBytes);
    }
    expect(peak).toBeLessThanOrEqual(100_000 + 65_536);
    const result = output.finish();
    expect(result).toMatchObject({ truncated: true, totalBytes: 64 * 1024 * 1024, binary: false });
    expect(result.text.length).toBeLessThan(100_200);
  });

  it('keeps exactly the first and last bytes for any mix of small and large chunks', () => {
    // ASCII only, so the UTF-8 trimming cannot move the cut and the kept text must match byte for byte.
    const stream = Buffer.from(Array.from({ length: 20_000 }, (_, i) => 97 + ((i * 7 + (i >> 5)) % 26)));
    let seed = 12_345;
    const next = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % limit;
    };
    for (const maxBytes of [1, 2, 17, 64, 999, 4_096]) {
      for (let round = 0; round < 20; round++) {
        const output = new OutputCapture(maxBytes, 'stdout');
        let peak = 0;
        let largest = 0;
        for (let at = 0; at < stream.length; ) {
          // Mostly small reads with now and then one larger than the whole budget.
          const size = next(4) === 0 ? 1 + next(maxBytes * 3) : 1 + next(Math.max(1, maxBytes >> 2));
          const chunk = stream.subarray(at, at + size);
          largest = Math.max(largest, chunk.length);
          output.push(chunk);
          peak = Math.max(peak, output.retainedBytes);
          at += size;
        }
        expect(peak).toBeLessThanOrEqual(maxBytes + largest);
        const head = Math.floor(maxBytes / 2);
        const tail = maxBytes - head;
        const expected = `${stream.subarray(0, head).toString()}\n[... ${stream.length - maxBytes} of ${
          stream.length
        } bytes of stdout left out here; only the first and last part are kept ...]\n${stream
          .subarray(stream.length - tail)
          .toString()}`;
        expect(output.finish().text, `cap ${maxBytes} round ${round}`).toBe(expected);
      }
    }
  });

  it('flags NUL bytes as binary and replaces invalid UTF-8 instead of throwing', () => {
    const result = capture(Buffer.from([0x61, 0x00, 0xff, 0x62]), 100, 2);
    expect(result.binary).toBe(true);
    expect(result.text).toBe('a\0\uFFFDb');
  });
});

describe('output caps on a real process', () => {
  it('cuts a real multi-byte stream at every offset around the cap without U+FFFD', async () => {
    const tree = makeWorkspace();
    try {
      tree.write('sample.txt', SAMPLE);
      for (let maxBytes = 10; maxBytes < 22; maxBytes++) {
        const result = await runProcess(['cat', 'sample.txt'], {
          cwd: tree.root,
          workspaceRoot: tree.root,
          baseEnv: TEST_BASE_ENV,
          maxOutputBytes: maxBytes,
        });
        if (!result.success) throw new Error(result.error);
        expect(result.stdout_truncated).toBe(true);
        expect(result.stdout_bytes).toBe(BYTES.length);
        expect(result.stdout).not.toContain('\uFFFD');
      }
    } finally {
      tree.cleanup();
    }
  });

  it('returns the exact head and tail of a multi-megabyte stream read in many pipe chunks', async () => {
    // Distinct lines, so a chunk that changed after it was captured (or a tail stitched in the wrong order) shows.
    const lines = 400_000;
    const full = Array.from({ length: lines }, (_, i) => `${i + 1}\n`).join('');
    for (const maxBytes of [100_000, 65_536, 3_000]) {
      const result = await runProcess(['seq', '1', String(lines)], {
        baseEnv: TEST_BASE_ENV,
        maxOutputBytes: maxBytes,
      });
      if (!result.success) throw new Error(result.error);
      expect(result.stdout_bytes).toBe(full.length);
      const head = Math.floor(maxBytes / 2);
      const tail = maxBytes - head;
      expect(result.stdout).toBe(
        `${full.slice(0, head)}\n[... ${full.length - maxBytes} of ${full.length} bytes of stdout left out here; only the first and last part are kept ...]\n${full.slice(-tail)}`,
      );
    }
  });

  it('reports binary output', async () => {
    const result = await runProcess(['printf', 'a\\000b\\377'], { baseEnv: TEST_BASE_ENV });
    expect(result).toMatchObject({ success: true, stdout_binary: true, stderr_binary: false, stdout_bytes: 4 });
    if (result.success) expect(result.stdout).toBe('a\0b\uFFFD');
  });
});
