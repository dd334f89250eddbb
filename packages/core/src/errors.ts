import type { z } from 'zod';
import { describe, safeJson } from './internal/safe-json.js';

/** The value every tool returns for an expected failure, so a model can read what happened and what to do next. */
export interface ToolFailure {
  readonly success: false;
  readonly error: string;
  readonly error_code: string;
}

/** Error codes produced by the execution pipeline itself (tools add their own). */
export const CallErrorCode = {
  unknownTool: 'unknown_tool',
  invalidRequest: 'invalid_request',
  denied: 'denied',
  handlerError: 'handler_error',
  timedOut: 'timed_out',
  aborted: 'aborted',
} as const;

/** Builds a {@link ToolFailure}; extra fields are kept so tools can add context such as candidates or counts. */
export function failure<E extends Record<string, unknown> = Record<string, never>>(
  errorCode: string,
  message: string,
  extra?: E,
): ToolFailure & E {
  return { ...(extra as E), success: false, error: message, error_code: errorCode };
}

/** True when a value has the {@link ToolFailure} shape. */
export function isToolFailure(value: unknown): value is ToolFailure {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { success?: unknown }).success === false &&
    typeof (value as { error_code?: unknown }).error_code === 'string'
  );
}

/** Thrown for programmer mistakes at set-up time (duplicate names, bad tool names), never for a model's bad input. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

/** Thrown by `Branch.clone()` when tools bound to the source branch cannot be rebuilt for the clone. */
export class CloneError extends ConfigurationError {
  /** The tool names that blocked the clone. */
  readonly tools: readonly string[];
  constructor(message: string, tools: readonly string[], options?: ErrorOptions) {
    super(message, options);
    this.tools = tools;
  }
}

/** Renders zod issues as one readable sentence per problem, naming the field path. */
export function describeZodError(error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'request';
    return `${where}: ${issue.message}`;
  });
  return parts.join('; ');
}

/** Turns anything thrown into a message without leaking stack traces into model-facing text. */
export function errorMessage(error: unknown): string {
  // Never throws: whatever a handler or callback threw (cycles, throwing getters, symbols) becomes some text.
  try {
    if (error instanceof Error) return error.message || error.name;
  } catch {
    return describe(error);
  }
  if (typeof error === 'string') return error;
  if (typeof error === 'symbol' || typeof error === 'function') return describe(error);
  return safeJson(error);
}
