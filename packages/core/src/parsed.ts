import type { z } from 'zod';

/** Requests the executor parsed for the call being handled, with the schema that parsed them. */
const parsedFor = new WeakMap<object, z.ZodType>();

/**
 * Records that `value` is the output of `schema` for a call about to reach its handler. Only the executor calls this,
 * and only for a fresh object that no pre hook has seen.
 */
export function markParsed(value: unknown, schema: z.ZodType): void {
  if (typeof value === 'object' && value !== null) parsedFor.set(value, schema);
}

/**
 * True, once, when the executor parsed this very object with `schema` for the call now being handled, so a handler
 * that validates its input (a standalone `handle…` function) may use it as is instead of parsing it a second time.
 * Anything else (a request built or changed by the caller, a second look at the same object) answers false, and the
 * handler parses as usual.
 */
export function takeParsed(value: unknown, schema: z.ZodType): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const by = parsedFor.get(value);
  if (by === undefined) return false;
  parsedFor.delete(value);
  return by === schema;
}

/**
 * `schema.safeParse(request)`, except for the request the executor has just parsed with this very schema for the call
 * being handled ({@link takeParsed}): that one is used as is. For handlers that validate their input anyway (the
 * packages' standalone `handle…` functions), so a call through a registry is parsed once, and any other input is
 * still parsed here.
 */
export function parseOnce<S extends z.ZodType>(schema: S, request: unknown): ReturnType<S['safeParse']> {
  if (takeParsed(request, schema)) return { success: true, data: request } as ReturnType<S['safeParse']>;
  return schema.safeParse(request) as ReturnType<S['safeParse']>;
}
