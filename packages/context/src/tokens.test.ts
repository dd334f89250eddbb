import { createRequire } from 'node:module';
import { Branch } from '@bough/core';
import { describe, expect, it, vi } from 'vitest';
import { activeTokenCount, countTokens, messageTokens, TOKEN_COUNT_LONG_RUN_CHARS } from './tokens.js';

const reference = createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as {
  countTokens(text: string): number;
};

describe('countTokens', () => {
  it('is exact for long ordinary text (no unbroken run beyond the bound)', () => {
    const prose = 'The quick brown fox jumps over the lazy dog; 12345 — ünïcödé 🙂.\n'.repeat(400);
    expect(prose.length).toBeGreaterThan(TOKEN_COUNT_LONG_RUN_CHARS * 10);
    expect(countTokens(prose)).toBe(reference.countTokens(prose));
    const edge = 'y'.repeat(TOKEN_COUNT_LONG_RUN_CHARS);
    expect(countTokens(`a ${edge} b`)).toBe(reference.countTokens(`a ${edge} b`));
  });

  it('counts a 1 MB run of one character without stalling, and a message of it is cached', () => {
    // Byte-pair merging is quadratic per pre-token: counted whole, this run takes the better part of an hour.
    const run = 'x'.repeat(1_000_000);
    expect(countTokens(run)).toBe(125_000);
    const spaced = `start ${'='.repeat(300_000)} middle ${' '.repeat(100_000)}end`;
    expect(countTokens(spaced)).toBeGreaterThan(0);
    const branch = new Branch();
    const message = branch.addMessage({ role: 'user', content: run });
    expect(messageTokens(message)).toBe(125_000);
    expect(activeTokenCount(branch)).toBe(125_000);
  });

  it('keeps surrogate pairs whole inside long runs', () => {
    const emoji = '🙂'.repeat(5_000);
    expect(countTokens(emoji)).toBeGreaterThan(0);
    expect(Number.isInteger(countTokens(emoji))).toBe(true);
  });
});

describe('activeTokenCount', () => {
  it('counts the active view exactly (o200k_base), evicted messages not at all', () => {
    const branch = new Branch();
    const message = branch.addMessage({ role: 'user', content: 'hello world' });
    expect(countTokens('')).toBe(0);
    expect(messageTokens(message)).toBe(2);
    expect(activeTokenCount(branch)).toBe(2);
    branch.evict(branch.activeIds());
    expect(activeTokenCount(branch)).toBe(0);
  });
});

describe('messageTokens caching', () => {
  it('encodes each message once; counting the active view again does no encoding', () => {
    const branch = new Branch({ system: 'sys' });
    for (let i = 0; i < 50; i += 1) branch.addMessage({ role: 'user', content: `message number ${i}` });
    const spy = vi.spyOn(reference, 'countTokens');
    try {
      const first = activeTokenCount(branch);
      expect(spy).toHaveBeenCalledTimes(51);
      expect(activeTokenCount(branch)).toBe(first);
      expect(spy).toHaveBeenCalledTimes(51);
      branch.addMessage({ role: 'assistant', content: 'one more' });
      activeTokenCount(branch);
      expect(spy).toHaveBeenCalledTimes(52);
    } finally {
      spy.mockRestore();
    }
  });
});
