import type { z } from 'zod';

/**
 * `schema.safeParse(request)`, except when `parsedBy` is that very schema: then `request` is already its output and is
 * used as is. The executor says so explicitly: it hands a handler `context.parsedBy` (see `ToolContext`) only when the
 * request is the fresh output of the tool's own schema that no pre hook has seen. For handlers that validate their
 * input anyway (the packages' standalone `handle…` functions, given `parsedBy` by their tool), so a registry call is
 * parsed once, while a direct call, or any request a hook could have changed, is parsed here.
 *
 * @param schema the schema the handler validates with
 * @param request the request as the handler received it
 * @param parsedBy the schema the caller already parsed `request` with (`context.parsedBy`), if any
 */
export function parseOnce<S extends z.ZodType>(
  schema: S,
  request: unknown,
  parsedBy?: z.ZodType,
): ReturnType<S['safeParse']> {
  if (parsedBy !== undefined && parsedBy === schema)
    return { success: true, data: request } as ReturnType<S['safeParse']>;
  return schema.safeParse(request) as ReturnType<S['safeParse']>;
}
