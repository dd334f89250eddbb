import { describe, expect, it } from 'vitest';
import { clampTimeout } from './clamp-timeout.js';

describe('clampTimeout', () => {
  it.each([
    [undefined, 30_000, false],
    [null, 30_000, false],
    [0, 30_000, true],
    [-5, 30_000, true],
    [Number.NaN, 30_000, true],
    [1, 1, false],
    [1500.2, 1501, false],
    [300_000, 300_000, false],
    [300_001, 300_000, true],
    [Number.POSITIVE_INFINITY, 30_000, true],
    [Number.NEGATIVE_INFINITY, 30_000, true],
  ])('maps %s to %s ms', (requested, timeoutMs, noted) => {
    const result = clampTimeout(requested);
    expect(result.timeoutMs).toBe(timeoutMs);
    expect(result.note !== undefined).toBe(noted);
  });

  it('says that 0 is not "no limit"', () => {
    expect(clampTimeout(0).note).toMatch(/0 does not mean/);
  });

  it('uses caller limits, keeping the default under the maximum', () => {
    expect(clampTimeout(undefined, { defaultMs: 5_000 })).toEqual({ timeoutMs: 5_000 });
    expect(clampTimeout(9_000, { maxMs: 8_000 }).timeoutMs).toBe(8_000);
    expect(clampTimeout(undefined, { defaultMs: 50_000, maxMs: 10_000 })).toEqual({ timeoutMs: 10_000 });
  });
});

describe('limit options', () => {
  it('a bad limit option throws a ConfigurationError naming it instead of being dropped', async () => {
    const { runProcess } = await import('./run-process.js');
    const { ConfigurationError } = await import('@bough/core');
    await expect(runProcess([process.execPath, '-e', ''], { maxOutputBytes: -1 })).rejects.toThrow(
      /process limits\.maxOutputBytes must be a non-negative integer/,
    );
    await expect(runProcess([process.execPath, '-e', ''], { drainMs: Number.NaN })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
  });

  it('a non-positive timeoutMs means the default, not "already spent"', async () => {
    const { runProcess } = await import('./run-process.js');
    const result = await runProcess([process.execPath, '-e', 'process.stdout.write("hi")'], { timeoutMs: 0 });
    expect(result).toMatchObject({ success: true, stdout: 'hi', timed_out: false, timeout_ms: 30_000 });
  });
});
