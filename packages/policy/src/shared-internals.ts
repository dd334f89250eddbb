/**
 * `@bough/policy/internal`: the compiled rules of one tool, shared with `@bough/coding` (which derives the OS
 * sandbox's hidden paths and the checkpoint tool's rules from them, and rebases a parent's rules for a subagent). NOT
 * public API: it changes with the packages that use it, in any release, without a major version — semver covers only
 * the main entry `@bough/policy`.
 *
 * @packageDocumentation
 */

/** A rule pattern rebased onto a directory below the root (a subagent working there inherits its parent's rules). */
export { type RebasedGlob, rebaseGlob } from './internal/glob-rebase.js';
/** The rules of one tool in a policy, compiled once, and the catch-all test. */
export { isCatchAll, type RuleLists, type RuleSet, type ToolRules, toolRules } from './policy-rules.js';
