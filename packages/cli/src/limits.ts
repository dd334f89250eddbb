import { defineLimits, type LimitValues } from '@bough/core';

/** Every limit the CLI adds on top of the tools' own, each overridable through {@link CliIO.limits}. */
export const CLI_LIMITS = defineLimits('cli', {
  maxStdinBytes: {
    value: 64 * 1024 * 1024,
    reason:
      "far above any real tool request (the editor's own content cap is smaller), small enough not to exhaust memory",
  },
});

/** The resolved limits of the CLI. */
export type CliLimits = LimitValues<keyof typeof CLI_LIMITS.defaults>;

/** Defaults for {@link CliLimits}. */
export const DEFAULT_CLI_LIMITS: CliLimits = CLI_LIMITS.defaults;
