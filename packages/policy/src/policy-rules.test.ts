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

// The workspace root (`.`, and `./` as a directory form) is not a name: only a catch-all names it, so a rule for
// dotfiles or single-letter names cannot refuse a whole-tree call, while every name below is judged as written.
describe('the root subject', () => {
  it.each([['.*'], ['?'], ['.?'], ['*.'], ['[.]'], ['**/.*'], ['.']])('%j does not name the root', (pattern) => {
    const rules = toolRules({ deny: { '*': [pattern] } }, 'search');
    expect(rules.deny.findOne('.')).toBeUndefined();
    expect(rules.deny.findOne('./')).toBeUndefined();
  });
  it.each([['*'], ['**']])('%j names the root and every path', (pattern) => {
    const rules = toolRules({ deny: { '*': ['.*', pattern] } }, 'search');
    expect(rules.deny.findOne('.')).toBe(pattern);
    expect(rules.deny.findOne('./')).toBe(pattern);
  });
  it('still judges dotfiles by the rule', () => {
    const rules = toolRules({ deny: { '*': ['.*'] } }, 'search');
    expect(rules.deny.findOne('.env')).toBe('.*');
    expect(rules.deny.findOne('.git/config')).toBe('.*');
    expect(rules.deny.findOne('src/a.ts')).toBeUndefined();
  });
});
