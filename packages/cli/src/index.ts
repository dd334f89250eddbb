/** Command-line parsing helpers. */
export { type ParsedArgs, parseArgs, UsageError } from './args.js';
/** The CLI's own limits (stdin size for `call -`). */
export { CLI_LIMITS, type CliLimits, DEFAULT_CLI_LIMITS } from './limits.js';
/** The CLI entry point, usable in-process (tests, embedding). */
export { main, USAGE } from './main.js';
/** The injectable input/output of the CLI. */
export type { CliIO } from './output.js';
/** The tool sets the CLI serves. */
export { standaloneRegistry, toolkitBranch } from './toolset.js';
