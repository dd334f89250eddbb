import type { z } from 'zod';
import { describe, safeJson } from './internal/safe-json.js';

/** Error codes produced by the execution pipeline itself (tools add their own). */
export const CallErrorCode = {
  unknownTool: 'unknown_tool',
  invalidRequest: 'invalid_request',
  denied: 'denied',
  handlerError: 'handler_error',
  timedOut: 'timed_out',
  aborted: 'aborted',
} as const;

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
