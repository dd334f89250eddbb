/**
 * `@bough/process/internal`: helpers the sibling `@bough/*` packages share. NOT public API: they change with the
 * packages that use them, in any release, without a major version — semver covers only the main entry
 * `@bough/process`. Programs outside this monorepo should not import this entry.
 *
 * @packageDocumentation
 */

/** The one hardened git runner (checkpoint store, worktree sessions): no hooks, no programs from config, scrubbed env. */
export {
  type GitConfigScope,
  type HardenedGitOptions,
  type HardenedGitResult,
  hardenedGitArgv,
  hardenedGitEnv,
  runHardenedGit,
} from './internal/hardened-git.js';
