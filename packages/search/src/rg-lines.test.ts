import { describe, expect, it } from 'vitest';
import { RgLineParser } from './internal/rg-lines.js';

const record = (path: string, line: number, offset: number, text: string) =>
  Buffer.concat([Buffer.from(path), Buffer.from([0]), Buffer.from(`${line}:${offset}:${text}\n`)]);

describe('RgLineParser', () => {
  it('gives every record its own path when files repeat, change and come back, whatever the chunking', () => {
    const paths = ['./a.py', './a.py', './b/é.py', './a.py', './b/é.py', './line\nbreak.py', './line\nbreak.py'];
    const bytes = Buffer.concat(paths.map((path, i) => record(path, i + 1, i * 10, `text ${i}`)));
    const expected = paths.map((path, i) => ({ path, line: i + 1, offset: i * 10, text: `text ${i}` }));
    for (const size of [1, 2, 3, 7, 64, bytes.length]) {
      const parser = new RgLineParser({ byteOffset: true });
      const got = [];
      for (let at = 0; at < bytes.length; at += size) {
        for (const line of parser.push(Buffer.from(bytes.subarray(at, at + size)))) {
          if (line.kind === 'match') got.push(line.match);
        }
      }
      expect(got).toEqual(expected);
    }
  });

  it('a path that only starts like the previous one is decoded again', () => {
    const parser = new RgLineParser();
    const bytes = Buffer.concat([
      Buffer.from('./ab\u00001:x\n'),
      Buffer.from('./abc\u00002:y\n'),
      Buffer.from('./ab\u00003:z\n'),
    ]);
    expect(parser.push(bytes).map((line) => (line.kind === 'match' ? line.match.path : line.text))).toEqual([
      './ab',
      './abc',
      './ab',
    ]);
  });
});
