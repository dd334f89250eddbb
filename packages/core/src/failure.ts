import { z } from 'zod';
import { ConfigurationError } from './bough-error.js';

/**
 * The value every tool returns for an expected failure, so a model can read what happened and what to do next.
 * `Code` narrows `error_code` to a package's table (see {@link defineErrorCodes}).
 */
export interface ToolFailure<Code extends string = string> {
  readonly success: false;
  readonly error: string;
  readonly error_code: Code;
}

/** A package's failure codes, declared once; `error_code` of its failures is the union of these strings. */
export type ErrorCodeTable<Code extends string = string> = readonly Code[];

/** The union of codes in a table made by {@link defineErrorCodes}. */
export type ErrorCodeOf<T extends ErrorCodeTable> = T[number];

const CODE_PATTERN = /^[a-z][a-z0-9_]*$/;

/**
 * Declares a package's failure codes in one frozen table, so `error_code` is a typed union, the response schema can
 * use `z.enum(table)`, and the README contract test checks the README against exactly this table.
 * Throws {@link ConfigurationError} for a code that is not snake_case or appears twice.
 */
export function defineErrorCodes<const Code extends string>(codes: readonly Code[]): readonly Code[] {
  const seen = new Set<string>();
  for (const code of codes) {
    if (!CODE_PATTERN.test(code)) throw new ConfigurationError(`error code ${JSON.stringify(code)} is not snake_case`);
    if (seen.has(code)) throw new ConfigurationError(`error code ${code} is declared twice`);
    seen.add(code);
  }
  return Object.freeze([...codes]);
}

/** Builds a {@link ToolFailure}; extra fields are kept so tools can add context such as candidates or counts. */
export function failure<Code extends string, E extends object = Record<never, never>>(
  errorCode: Code,
  message: string,
  extra?: E,
): ToolFailure<Code> & E {
  return { ...(extra as E), success: false, error: message, error_code: errorCode };
}

/** A {@link failure} builder whose code parameter only accepts the codes of one table. */
export type FailureBuilder<Code extends string> = <E extends object = Record<never, never>>(
  errorCode: Code,
  message: string,
  extra?: E,
) => ToolFailure<Code> & E;

/** Returns {@link failure} narrowed to one package's table, so a misspelt code does not compile. */
export function failureBuilder<Code extends string>(_codes: ErrorCodeTable<Code>): FailureBuilder<Code> {
  return failure as FailureBuilder<Code>;
}

/**
 * The zod schema of a failure whose `error_code` is one of `codes`. Extra context fields (candidates, counts) are
 * allowed and kept, so one schema serves every package.
 */
export function failureSchema<const Code extends string>(codes: readonly [Code, ...Code[]] | readonly Code[]) {
  return z.looseObject({
    success: z.literal(false).describe('false: the request failed; `error` says why and what to do next'),
    error: z.string().describe('What happened and what to do next, written for the model'),
    error_code: z.enum(codes as readonly [Code, ...Code[]]).describe('A stable snake_case code for programs'),
  });
}

/**
 * True when a value is a tool's expected failure, read from the contract's discriminant alone: `success: false`.
 * Every host (MCP's `isError`, the CLI's exit code, the nudge streaks, the conformance suite) asks this one question.
 * A `{ success: false }` without `error_code` still counts: a malformed failure must not pass for a success. Outputs
 * that also carry a `status` (code_check, ast_search) say `success: false` on every failing status.
 */
export function isToolFailure(value: unknown): value is ToolFailure {
  return typeof value === 'object' && value !== null && (value as { success?: unknown }).success === false;
}

/** Every key of every member of a union (plain `keyof` of a union keeps only the shared ones). */
type KeysOfUnion<T> = T extends unknown ? keyof T : never;

/**
 * A request `R` that has no field its input type `T` lacks. A handler declared as
 * `handle<R extends T>(request: R & OnlyKnownFields<R, T>)` keeps its action-typed answer and makes a misspelt field
 * (`old_strin`) a compile error for a plain program, as an object literal typed `T` would; the request schema still
 * refuses it at run time for callers without types.
 */
export type OnlyKnownFields<R, T> = { readonly [K in Exclude<keyof R, KeysOfUnion<T>>]: never };
