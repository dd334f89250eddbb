import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isRecord, plural, stringOf, toolOutputSummary, toolOutputText } from './render.js';
import { defineTool } from './tool.js';

describe('toolOutputText: what a model reads', () => {
  it('shows a failure as its code and message, with extra fields after it, whatever the tool renders', () => {
    const own = { toModelText: () => 'never' };
    const text = toolOutputText(own, {
      success: false,
      error: 'Read it first.',
      error_code: 'not_read',
      candidates: ['a'],
    });
    expect(text).toBe('Error (not_read): Read it first.\ncandidates: ["a"]');
  });

  it("uses the tool's own text, and the generic one when the tool has none or declines", () => {
    const own = { toModelText: (output: { n?: number }) => (output.n ? `n=${output.n}` : undefined) };
    expect(toolOutputText(own, { success: true, n: 2 })).toBe('n=2');
    expect(toolOutputText(own, { success: true, message: 'Done.' })).toBe('Done.');
    expect(toolOutputText(undefined, { success: true, a: 1 })).toBe('{"success":true,"a":1}');
    expect(toolOutputText(undefined, 'plain')).toBe('plain');
    expect(toolOutputText(undefined, undefined)).toBe('null');
  });

  it("words a failure as the tool's failureText says, and as core does when it declines", () => {
    const dialect = {
      failureText: (failure: { error: string }) => (failure.error.startsWith('Error:') ? failure.error : undefined),
    };
    expect(toolOutputText(dialect, { success: false, error: 'Error: File not found', error_code: 'not_found' })).toBe(
      'Error: File not found',
    );
    expect(toolOutputText(dialect, { success: false, error: 'gone', error_code: 'not_found' })).toBe(
      'Error (not_found): gone',
    );
    const tool = defineTool({
      name: 'dialect',
      description: 'A dialect tool.',
      request: z.object({}),
      handler: async () => ({}),
      failureText: (failure) => failure.error,
    });
    expect(toolOutputText(tool, { success: false, error: 'Error: no', error_code: 'x' })).toBe('Error: no');
  });
});

describe('toolOutputSummary: what people read', () => {
  it("marks failures, uses the tool's own summary, and falls back to content or clipped JSON", () => {
    expect(toolOutputSummary(undefined, { success: false, error_code: 'protected_path', error: 'no' })).toEqual({
      ok: false,
      headline: '[protected_path] no',
      details: [],
    });
    const own = { summarize: () => ({ headline: 'mine' }) };
    expect(toolOutputSummary(own, { success: true })).toEqual({ ok: true, headline: 'mine', details: [] });
    expect(toolOutputSummary(undefined, { success: true, relative: 'd', content: 'a\tb\nc' }).details).toEqual([
      'a  b',
      'c',
    ]);
    expect(toolOutputSummary(undefined, { success: true, blob: 'y'.repeat(10_000) }).headline.length).toBeLessThan(300);
  });

  it('reaches the hooks a tool declares through defineTool, and refuses a hook that is not a function', () => {
    const tool = defineTool({
      name: 'shout',
      description: 'Says the word back in capitals, for testing the rendering hooks.',
      request: z.object({ word: z.string() }),
      handler: async ({ word }) => ({ success: true as const, word }),
      toModelText: (output) => output.word.toUpperCase(),
      summarize: (output) => ({ headline: `said ${output.word}` }),
    });
    expect(toolOutputText(tool, { success: true, word: 'hi' })).toBe('HI');
    expect(toolOutputSummary(tool, { success: true, word: 'hi' }).headline).toBe('said hi');
    const bad = { name: 'bad', description: 'A tool whose rendering hook is not a function at all.' };
    expect(() =>
      defineTool({ ...bad, request: z.object({}), handler: async () => ({}), toModelText: 'x' as never }),
    ).toThrow(/toModelText must be a function/);
  });
});

describe('the value helpers tools render with', () => {
  it('reads only plain objects as records, only strings as text, and counts nouns', () => {
    expect([{}, { a: 1 }, [], null, 'x', 3].map(isRecord)).toEqual([true, true, false, false, false, false]);
    expect([stringOf('a'), stringOf(''), stringOf(1), stringOf(undefined)]).toEqual(['a', '', undefined, undefined]);
    expect([plural(0, 'file'), plural(1, 'file'), plural(2, 'file')]).toEqual(['0 files', '1 file', '2 files']);
  });
});
