/**
 * `@bough/policy/internal`: the compiled rules of one tool, shared with `@bough/coding` (which derives the OS
 * sandbox's hidden paths and the checkpoint tool's rules from them). NOT public API: it changes with the packages
 * that use it, in any release, without a major version — semver covers only the main entry `@bough/policy`.
 *
 * @packageDocumentation
 */

/** The rules of one tool in a policy, compiled once, and the catch-all test. */
export { isCatchAll, type RuleLists, type RuleSet, type ToolRules, toolRules } from './policy-rules.js';
