import { describe, expect, it } from 'vitest';
import { ByteScan } from './internal/byte-edit.js';

// The scan sees a big file in 8 MiB reads; these feed tiny steps so every boundary case (a match, a multi-byte
// character or a BOM split between reads) is met, and check the plan equals the one made from the whole buffer.
const planOf = (bytes: Buffer, oldString: string, newString: string, step: number) => {
  const scan = new ByteScan(oldString, newString);
  for (let length = step; length < bytes.length; length += step) scan.feed(bytes, length);
  return scan.finish(bytes);
};

describe('ByteScan fed in small steps', () => {
  const text = Buffer.from('\ufeffé日本😀 x\nabc TARGET é😀\n日本\nTARGE');
  it('finds the same single occurrence and line at every step size', () => {
    const whole = planOf(text, 'TARGET é', 'Q', text.length);
    expect(whole).toMatchObject({ encoding: 'utf-8-bom', lineFeedsBefore: 1 });
    for (let step = 1; step <= 9; step++) expect(planOf(text, 'TARGET é', 'Q', step)).toEqual(whole);
  });
  it('leaves the text path to decide on two occurrences, a CR or invalid UTF-8, whatever the step', () => {
    const twice = Buffer.from('ab\nab\n');
    const cr = Buffer.from('ab\r\ncd\n');
    const bad = Buffer.concat([Buffer.from('ab\n'), Buffer.from([0xe6, 0x97]), Buffer.from('\ncd')]);
    for (let step = 1; step <= 5; step++) {
      expect(planOf(twice, 'ab', 'x', step)).toBeUndefined();
      expect(planOf(cr, 'cd', 'x', step)).toBeUndefined();
      expect(planOf(bad, 'cd', 'x', step)).toBeUndefined();
    }
  });
});
