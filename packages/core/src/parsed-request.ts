import type { z } from 'zod';
import type { Tool } from './tool.js';

// Why a module-private registry rather than a field on the object: a plain object (or a copy of a real one) can carry
// any field, so only membership here proves that core itself parsed the arguments. Nothing outside this module can add
// to it, so `ExecuteOptions.parsed` cannot be forged with `{ schema: tool.request, data: <anything> }`.
const issued = new WeakMap<object, { readonly schema: z.ZodType; readonly args: unknown }>();

declare const parsedRequestBrand: unique symbol;

/**
 * Arguments already parsed by a tool's request schema, as only {@link parseToolRequest} makes them. Hand it to the
 * call of the same arguments as `ExecuteOptions.parsed` so they are not parsed twice. Opaque on purpose: an object
 * that merely looks like one is not accepted.
 */
export interface ParsedRequest<REQ = unknown> {
  /** The parse's output: the very value the handler will receive, so read it, never change it. */
  readonly data: REQ;
  readonly [parsedRequestBrand]: true;
}

/** What {@link parseToolRequest} found: the parsed request, or the schema's refusal. */
export type ParsedRequestResult<REQ = unknown> =
  | { readonly success: true; readonly parsed: ParsedRequest<REQ> }
  | { readonly success: false; readonly error: z.ZodError };

/**
 * Parses `args` with `tool.request`, for a caller that must read the request before calling the tool (the MCP roots
 * router reads what it touches to pick the root). The result's `parsed` is accepted by `executeTool` /
 * `ToolRegistry.invoke` as `ExecuteOptions.parsed` for one call with these same `args` (the same object) to a tool
 * with this same request schema; that call then skips its own parse. Any other call ignores it and parses as usual.
 *
 * @param tool the tool whose request schema parses the arguments
 * @param args the arguments as received, the same value later passed to the call
 */
export function parseToolRequest<REQ>(tool: Tool<REQ>, args: unknown): ParsedRequestResult<REQ> {
  const result = tool.request.safeParse(args);
  if (!result.success) return { success: false, error: result.error };
  const parsed = Object.freeze({ data: result.data as REQ }) as ParsedRequest<REQ>;
  issued.set(parsed, { schema: tool.request, args });
  return { success: true, parsed };
}

/**
 * The data of `parsed` when core made it by parsing these very `args` with `schema` and it was not used before;
 * `undefined` otherwise (the caller then parses). A match is used up, so one parse serves exactly one call: a handler
 * may change its request in place, and a second call must not receive that.
 */
export function takeParsedRequest(parsed: unknown, schema: z.ZodType, args: unknown): { data: unknown } | undefined {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const origin = issued.get(parsed);
  if (origin === undefined || origin.schema !== schema || origin.args !== args) return undefined;
  issued.delete(parsed);
  return { data: (parsed as ParsedRequest).data };
}
