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
    expect(
      parser
        .push(bytes)
        .map((line) => (line.kind === 'match' ? line.match.path : line.kind === 'notice' ? line.text : line.path)),
    ).toEqual(['./ab', './abc', './ab']);
  });

  it('counts the records of a path the caller does not want by path alone, and still decodes malformed ones', () => {
    const bytes = Buffer.concat([
      record('./keep.py', 1, 0, 'kept'),
      record('./skip.py', 2, 10, 'skipped'),
      Buffer.from('./skip.py\u0000x:1:not a record\n'),
      record('./keep.py', 3, 20, 'kept too'),
    ]);
    for (const size of [1, 5, bytes.length]) {
      const parser = new RgLineParser({ byteOffset: true, textWanted: (path) => path !== './skip.py' });
      const got = [];
      for (let at = 0; at < bytes.length; at += size)
        got.push(...parser.push(Buffer.from(bytes.subarray(at, at + size))));
      expect(got).toEqual([
        { kind: 'match', match: { path: './keep.py', line: 1, offset: 0, text: 'kept' } },
        { kind: 'counted', path: './skip.py' },
        { kind: 'notice', text: 'x:1:not a record' },
        { kind: 'match', match: { path: './keep.py', line: 3, offset: 20, text: 'kept too' } },
      ]);
    }
  });
});
