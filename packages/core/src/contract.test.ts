import { describe, expect, it } from 'vitest';
import { BoughError, CloneError, ConfigurationError } from './bough-error.js';
import {
  defineErrorCodes,
  type ErrorCodeOf,
  failure,
  failureBuilder,
  failureSchema,
  isToolFailure,
} from './failure.js';
import { defineLimits, formatBytes, limitText } from './limits.js';
import { effectiveTimeout, MAX_TIMEOUT_MS } from './timeout.js';

describe('failure codes and schema', () => {
  const CODES = defineErrorCodes(['not_found', 'invalid_path']);
  type Code = ErrorCodeOf<typeof CODES>;
  const fail = failureBuilder(CODES);

  it('builds typed failures and keeps extra fields', () => {
    const result = fail('not_found', 'No such file; list the directory first.', { candidates: ['a.ts'] });
    const code: Code = result.error_code;
    expect(code).toBe('not_found');
    expect(result).toEqual({
      success: false,
      error: 'No such file; list the directory first.',
      error_code: 'not_found',
      candidates: ['a.ts'],
    });
    expect(isToolFailure(result)).toBe(true);
    // @ts-expect-error a code outside the table does not compile
    fail('nope', 'x');
  });

  it('the schema accepts only codes of the table and keeps extra fields', () => {
    const schema = failureSchema(CODES);
    expect(schema.parse(failure('invalid_path', 'blank', { path: '  ' }))).toMatchObject({ path: '  ' });
    expect(schema.safeParse(failure('other', 'x')).success).toBe(false);
  });

  it('refuses a table that is not snake_case or repeats a code', () => {
    expect(() => defineErrorCodes(['Bad-Code'])).toThrow(ConfigurationError);
    expect(() => defineErrorCodes(['a', 'a'])).toThrow(/twice/);
    expect(Object.isFrozen(CODES)).toBe(true);
  });
});

describe('BoughError', () => {
  it('is the one base with a code, recognised across copies through a Symbol.for marker', () => {
    const error = new ConfigurationError('bad name', { cause: new Error('inner') });
    expect(error).toBeInstanceOf(BoughError);
    expect(error.code).toBe('configuration_error');
    expect(error.name).toBe('ConfigurationError');
    expect((error.cause as Error).message).toBe('inner');
    const clone = new CloneError('bound tools', ['a']);
    expect(clone.code).toBe('clone_rejected');
    expect(BoughError.isInstance(clone)).toBe(true);
    // A second copy of the package makes its own class but the same registered symbol.
    const foreign = Object.assign(new Error('x'), { [Symbol.for('bough.error')]: true, code: 'x' });
    expect(BoughError.isInstance(foreign)).toBe(true);
    expect(BoughError.isInstance(new Error('plain'))).toBe(false);
    expect(BoughError.isInstance(null)).toBe(false);
  });
});

describe('defineLimits', () => {
  const LIMITS = defineLimits('demo', {
    maxLines: { value: 2000, reason: 'a few screens' },
    cacheTtlMs: { value: 1000, reason: 'short', rule: 'non_negative_integer' },
    ratio: { value: 0.5, reason: 'half', rule: 'positive', max: 1 },
    timeoutMs: { value: 30_000, reason: 'a build', rule: 'timeout', max: 600_000 },
  });

  it('resolves defaults and valid overrides into a frozen object', () => {
    expect(LIMITS.resolve()).toEqual({ maxLines: 2000, cacheTtlMs: 1000, ratio: 0.5, timeoutMs: 30_000 });
    const limits = LIMITS.resolve({ maxLines: 10, cacheTtlMs: 0, ratio: 1 });
    expect(limits).toMatchObject({ maxLines: 10, cacheTtlMs: 0, ratio: 1 });
    expect(Object.isFrozen(limits)).toBe(true);
    expect(LIMITS.reasons.maxLines).toBe('a few screens');
  });

  it('returns already resolved limits unchanged (resolve once per build)', () => {
    const limits = LIMITS.resolve({ maxLines: 10 });
    expect(LIMITS.resolve(limits)).toBe(limits);
    expect(LIMITS.resolve(LIMITS.defaults)).toBe(LIMITS.defaults);
  });

  it.each([
    [{ maxLines: 0 }, /demo limits\.maxLines must be a positive integer; got 0/],
    [{ maxLines: 1.5 }, /maxLines/],
    [{ cacheTtlMs: -1 }, /cacheTtlMs must be a non-negative integer/],
    [{ ratio: 2 }, /ratio must be at most 1/],
    [{ ratio: Number.NaN }, /ratio/],
    [{ maxLine: 5 }, /demo has no limit named maxLine/],
    [{ maxLines: '5' }, /maxLines/],
  ])('throws a ConfigurationError naming the key for %o', (overrides, message) => {
    expect(() => LIMITS.resolve(overrides as never)).toThrow(ConfigurationError);
    expect(() => LIMITS.resolve(overrides as never)).toThrow(message);
  });

  it('timeouts follow the one rule: non-positive or non-finite means the default; larger ones are capped', () => {
    for (const value of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(LIMITS.resolve({ timeoutMs: value }).timeoutMs).toBe(30_000);
    }
    expect(LIMITS.resolve({ timeoutMs: 10_000_000 }).timeoutMs).toBe(600_000);
    expect(LIMITS.resolve({ timeoutMs: 1.2 }).timeoutMs).toBe(2);
  });

  it('refuses a table whose default breaks its own rule or that has no reason', () => {
    expect(() => defineLimits('bad', { a: { value: -1, reason: 'r' } })).toThrow(/bad limit a default -1/);
    expect(() => defineLimits('bad', { a: { value: 1, reason: ' ' } })).toThrow(/no reason/);
  });

  it('builds model-facing text from resolved values', () => {
    const limits = LIMITS.resolve({ maxLines: 12_345 });
    expect(limitText('Reads at most {maxLines} lines.', limits)).toBe('Reads at most 12,345 lines.');
    expect(() => limitText('{nope}', limits)).toThrow(ConfigurationError);
    expect(formatBytes(64 * 1024 * 1024)).toBe('64 MiB');
    expect(formatBytes(50_000)).toBe('50,000 bytes');
  });
});

describe('effectiveTimeout', () => {
  it('one meaning everywhere: missing, non-positive or non-finite is the default; above the ceiling is capped', () => {
    for (const value of [undefined, null, 0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5']) {
      expect(effectiveTimeout(value, 30_000)).toBe(30_000);
      expect(effectiveTimeout(value, undefined)).toBeUndefined();
    }
    expect(effectiveTimeout(2 ** 40, undefined)).toBe(MAX_TIMEOUT_MS);
    expect(effectiveTimeout(5000, 30_000, 1000)).toBe(1000);
    expect(effectiveTimeout(0.2, 30_000)).toBe(1);
    expect(MAX_TIMEOUT_MS).toBe(2 ** 31 - 1);
  });
});
