import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8 } from './utf8.js';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('firstInvalidUtf8', () => {
  it('answers -1 for valid text, including every sequence length', () => {
    expect(firstInvalidUtf8(new Uint8Array())).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from('a é € 😀'))).toBe(-1);
  });

  it('points at the first byte of the broken sequence', () => {
    expect(firstInvalidUtf8(bytes(0x61, 0xff))).toBe(1);
    expect(firstInvalidUtf8(bytes(0x61, 0x62, 0xc3))).toBe(2); // cut short at the end
    expect(firstInvalidUtf8(bytes(0xc0, 0x80))).toBe(0); // overlong
    expect(firstInvalidUtf8(bytes(0x61, 0xed, 0xa0, 0x80))).toBe(1); // surrogate
    expect(firstInvalidUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(0); // past U+10FFFF
    expect(firstInvalidUtf8(bytes(0xe2, 0x28, 0xa1))).toBe(0); // bad continuation
  });
});
