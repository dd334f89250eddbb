/** Every limit the CLI adds on top of the tools' own, each overridable through {@link CliIO.limits}. */
export interface CliLimits {
  /** Most bytes of JSON arguments read from stdin by `bough call <tool> -`. */
  readonly maxStdinBytes: number;
}

/** Defaults for {@link CliLimits}. */
export const DEFAULT_CLI_LIMITS: CliLimits = Object.freeze({
  // Far above any real tool request (the editor's own content cap is smaller), small enough not to exhaust memory.
  maxStdinBytes: 64 * 1024 * 1024,
});
