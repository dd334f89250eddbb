const MARKER = Symbol.for('bough.error');

/** Options every bough error accepts: a stable `code` a program can branch on, and the usual `cause`. */
export interface BoughErrorOptions extends ErrorOptions {
  readonly code?: string;
}

/**
 * The one base class of everything bough throws (set-up and configuration mistakes only; expected failures are
 * values). `BoughError.isInstance` recognises errors from another copy of the package too, through a `Symbol.for`
 * marker, where `instanceof` would not.
 */
export class BoughError extends Error {
  /** A stable snake_case code for programs; the message is for people. */
  readonly code: string;

  constructor(message: string, options: BoughErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    // Non-enumerable, so the marker never shows up in logs, JSON or deep equality.
    Object.defineProperty(this, MARKER, { value: true });
    this.code = options.code ?? 'bough_error';
  }

  /** True for any bough error, even one created by a second copy of this package. */
  static isInstance(error: unknown): error is BoughError {
    return typeof error === 'object' && error !== null && MARKER in error;
  }
}

/** Thrown for programmer mistakes at set-up time (duplicate names, bad tool names, bad limits), never for a model's input. */
export class ConfigurationError extends BoughError {
  constructor(message: string, options: BoughErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? 'configuration_error' });
  }
}

/** Thrown by `Branch.clone()` when tools bound to the source branch cannot be rebuilt for the clone. */
export class CloneError extends ConfigurationError {
  /** The tool names that blocked the clone. */
  readonly tools: readonly string[];
  constructor(message: string, tools: readonly string[], options: BoughErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? 'clone_rejected' });
    this.tools = tools;
  }
}
