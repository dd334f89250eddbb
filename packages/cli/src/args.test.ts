import { BoughError } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { checkFlags, flag, has, intFlag, parseArgs, UsageError } from './args.js';

describe('parseArgs', () => {
  it('splits command, positionals and flags in any order', () => {
    const args = parseArgs(['call', '--workspace', '/tmp/x', 'reader', '{"a":1}', '--json', '--timeout=50']);
    expect(args.command).toBe('call');
    expect(args.positionals).toEqual(['reader', '{"a":1}']);
    expect(flag(args, 'workspace')).toBe('/tmp/x');
    expect(has(args, 'json')).toBe(true);
    expect(intFlag(args, 'timeout')).toBe(50);
  });

  it('supports short flags and -- to end flag parsing', () => {
    const args = parseArgs(['call', '-w', 'dir', 'bash', '--', '--not-a-flag']);
    expect(flag(args, 'workspace')).toBe('dir');
    expect(args.positionals).toEqual(['bash', '--not-a-flag']);
  });

  it('groups short switches as getopt does, so an unknown letter in a group is still a flag checkFlags can refuse', () => {
    const args = parseArgs(['tools', '-hj']);
    expect(has(args, 'help') && has(args, 'json')).toBe(true);
    expect(() => checkFlags(parseArgs(['tools', '-jq']))).toThrow(/does not accept --q/);
  });

  it('refuses missing values, values on switches and bad numbers', () => {
    expect(() => parseArgs(['tools', '--workspace'])).toThrow(UsageError);
    expect(() => parseArgs(['tools', '--json=yes'])).toThrow(UsageError);
    expect(() => intFlag(parseArgs(['x', '--max-turns', '0']), 'max-turns')).toThrow(UsageError);
    expect(() => intFlag(parseArgs(['x', '--max-turns', '2.5']), 'max-turns')).toThrow(UsageError);
  });

  it('throws a BoughError with code usage_error, like every other bough throw', () => {
    const error = new UsageError('bad');
    expect(BoughError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: 'UsageError', code: 'usage_error', message: 'bad' });
  });
});
