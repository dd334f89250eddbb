import { describe, expect, it } from 'vitest';
import { isCatchAll, toolRules } from './policy-rules.js';

// One test of what a catch-all pattern is, which the policy's compiled rules, its setup check and the checkpoint
// store's exclusions all use.
describe('isCatchAll', () => {
  it.each([
    ['*', true],
    ['**', true],
    ['***', true],
    ['', false],
    ['*.pem', false],
    ['src/*', false],
    ['**/x', false],
    [' *', false],
  ])('%j → %s', (pattern, expected) => {
    expect(isCatchAll(pattern)).toBe(expected);
    // A tool's rules name paths exactly when one of its patterns is not a catch-all.
    expect(toolRules({ allow: { reader: [pattern] } }, 'reader').namesPaths).toBe(!expected);
  });
});
