import type { z } from 'zod';
import { ConfigurationError } from './bough-error.js';
import type { BranchView } from './branch-view.js';
import type { ToolFailure } from './failure.js';
import type { ToolSummaryParts } from './render.js';
import type { Touches, TouchesOf } from './touches.js';

/** Whether a tool can be shared across branches ('stateless') or closes over one branch ('branch'). */
export type ToolScope = 'stateless' | 'branch';

/** Progress report a long-running handler may send; the CLI renders it as a spinner or counter. */
export interface ToolProgress {
  readonly message?: string;
  readonly completed?: number;
  readonly total?: number;
  /** Set on the executor's own "still running" reports, so a display that keeps its own timer can skip them. */
  readonly heartbeat?: true;
}

/** What a handler receives besides its request: cancellation, identity, and the branch when bound. */
export interface ToolContext {
  readonly signal: AbortSignal;
  readonly callId: string;
  /** The branch acting, when the call came through `branch.act`: its record and active view, not its tools. */
  readonly branch?: BranchView;
  readonly progress?: (update: ToolProgress) => void;
  /**
   * The schema the executor parsed `request` with, present only when `request` is that parse's fresh output and no
   * pre hook has seen it: a handler that validates its input anyway may then use it as is (`parseOnce`). Absent for
   * a hooked call and for a direct `handler()` call, so those are parsed again.
   */
  readonly parsedBy?: z.ZodType;
  /**
   * What the request touches (`tool.touches(request)`), worked out once by the executor; present under the same
   * condition as `parsedBy` (no pre hook has seen the request), so a handler that needs it does not ask again.
   */
  readonly touches?: Touches;
}

/** What every hook sees about the call in flight. */
export interface HookCall {
  readonly tool: Tool;
  readonly callId: string;
  readonly branch?: BranchView;
}

/** A pre hook's verdict: continue (optionally with rewritten arguments) or deny with a reason for the model. */
export type PreHookResult =
  | undefined
  | void
  | { readonly decision?: 'allow'; readonly args?: unknown }
  | { readonly decision: 'deny'; readonly reason: string };

/**
 * Runs before the handler; may rewrite arguments (validated again) or deny. A throwing pre hook denies. `touches` is
 * what `args` touch (`tool.touches(args)`), worked out once per call by the executor (again after a rewrite) and
 * handed to every pre hook; absent when the tool declares nothing or its declaration threw (a hook that needs it then
 * asks the tool itself, and fails closed).
 */
export type PreHook = (
  call: HookCall & { readonly args: unknown; readonly touches?: Touches },
) => PreHookResult | Promise<PreHookResult>;

/** Runs after a successful handler; returning a value other than undefined replaces the result. Errors are ignored. */
export type PostHook = (call: HookCall & { readonly args: unknown; readonly result: unknown }) => unknown;

/** Runs when the handler throws; returning `{ result }` turns the failure into that result. */
export type ErrorHook = (
  call: HookCall & { readonly args: unknown; readonly error: unknown },
) => { readonly result: unknown } | undefined | void | Promise<{ readonly result: unknown } | undefined | void>;

/** A group of hooks; the executor runs each list in order. */
export interface ToolHooks {
  readonly pre?: readonly PreHook[];
  readonly post?: readonly PostHook[];
  readonly error?: readonly ErrorHook[];
}

/** A frozen tool descriptor: name, model-facing description, zod request schema and an async handler. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every request/response type.
export interface Tool<REQ = any, RES = any> {
  readonly name: string;
  readonly description: string;
  readonly request: z.ZodType<REQ>;
  readonly response?: z.ZodType<RES>;
  readonly handler: (request: REQ, context: ToolContext) => Promise<RES>;
  readonly scope: ToolScope;
  /** Hooks that travel with this tool (the coding toolkit attaches its policy here). */
  readonly hooks?: ToolHooks;
  /** Free-form annotations (e.g. MCP readOnlyHint); never read by the executor. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** A JSON Schema to advertise instead of the one derived from `request` (tools proxied from a remote server). */
  readonly jsonSchema?: Readonly<Record<string, unknown>>;
  /**
   * What a parsed request touches on the file system (see {@link Touches}): the one declaration permission
   * policies, MCP roots and the read-before-edit guard read. A tool without it cannot be given a path rule.
   */
  readonly touches?: TouchesOf<REQ>;
  /** The text a model reads for a successful output (see {@link ToolRendering}); hosts fall back to a generic one. */
  readonly toModelText?: (output: RES) => string | undefined;
  /** A headline and a few lines for people (see {@link ToolRendering}); hosts fall back to a generic one. */
  readonly summarize?: (output: RES) => ToolSummaryParts | undefined;
  /** The text a model reads for a failure (see {@link ToolRendering}); hosts fall back to core's. */
  readonly failureText?: (failure: ToolFailure) => string | undefined;
}

/** The input of {@link defineTool}; `scope` defaults to 'stateless'. */
export interface ToolSpec<REQ, RES> {
  name: string;
  description: string;
  request: z.ZodType<REQ>;
  response?: z.ZodType<RES>;
  handler: (request: REQ, context: ToolContext) => Promise<RES>;
  scope?: ToolScope;
  hooks?: ToolHooks;
  annotations?: Record<string, unknown>;
  jsonSchema?: Readonly<Record<string, unknown>>;
  /** What a parsed request touches (see {@link Tool.touches}); `touchesNothing` for a tool that names no path. */
  touches?: TouchesOf<REQ>;
  /** The tool's own model-facing text of an output (see {@link Tool.toModelText}). */
  toModelText?: (output: RES) => string | undefined;
  /** The tool's own short summary of an output for people (see {@link Tool.summarize}). */
  summarize?: (output: RES) => ToolSummaryParts | undefined;
  /** The tool's own model-facing text of a failure (see {@link Tool.failureText}). */
  failureText?: (failure: ToolFailure) => string | undefined;
}

/** Model-facing tool names: lower-case letters, digits and underscores, 1 to 64 characters. */
export const TOOL_NAME_PATTERN = /^[a-z0-9_]{1,64}$/;

/**
 * Names that match {@link TOOL_NAME_PATTERN} but are refused: adapters key plain objects by tool name, and there
 * these names are inherited from `Object.prototype` (`__proto__` would even replace the object's prototype).
 */
export const RESERVED_TOOL_NAMES: readonly string[] = Object.freeze(['__proto__', 'constructor']);

/** Creates a frozen {@link Tool}, checking the name and the pieces a registry relies on. */
export function defineTool<REQ, RES>(spec: ToolSpec<REQ, RES>): Tool<REQ, RES> {
  if (typeof spec.name !== 'string' || !TOOL_NAME_PATTERN.test(spec.name)) {
    throw new ConfigurationError(`Tool name ${JSON.stringify(spec.name)} must match ${TOOL_NAME_PATTERN}.`);
  }
  if (RESERVED_TOOL_NAMES.includes(spec.name)) {
    throw new ConfigurationError(
      `Tool name ${spec.name} is reserved: it collides with a built-in property of JavaScript objects. Pick another.`,
    );
  }
  if (typeof spec.description !== 'string' || spec.description.trim() === '') {
    throw new ConfigurationError(`Tool ${spec.name} needs a description that tells a model when to use it.`);
  }
  if (typeof spec.handler !== 'function') throw new ConfigurationError(`Tool ${spec.name} needs a handler function.`);
  if (!spec.request || typeof (spec.request as { safeParse?: unknown }).safeParse !== 'function') {
    throw new ConfigurationError(`Tool ${spec.name} needs a zod request schema.`);
  }
  if (spec.touches !== undefined && typeof spec.touches !== 'function') {
    throw new ConfigurationError(`Tool ${spec.name}'s touches must be a function of the parsed request.`);
  }
  for (const hook of ['toModelText', 'summarize', 'failureText'] as const) {
    if (spec[hook] !== undefined && typeof spec[hook] !== 'function') {
      throw new ConfigurationError(`Tool ${spec.name}'s ${hook} must be a function of the output.`);
    }
  }
  requireZod4(spec.name, 'request', spec.request);
  if (spec.response) requireZod4(spec.name, 'response', spec.response);
  const tool: Tool<REQ, RES> = {
    name: spec.name,
    description: spec.description,
    request: spec.request,
    ...(spec.response ? { response: spec.response } : {}),
    handler: spec.handler,
    scope: spec.scope ?? 'stateless',
    ...(spec.hooks ? { hooks: freezeHooks(spec.hooks) } : {}),
    ...(spec.annotations ? { annotations: Object.freeze({ ...spec.annotations }) } : {}),
    ...(spec.jsonSchema ? { jsonSchema: Object.freeze({ ...spec.jsonSchema }) } : {}),
    ...(spec.touches ? { touches: spec.touches } : {}),
    ...(spec.toModelText ? { toModelText: spec.toModelText } : {}),
    ...(spec.summarize ? { summarize: spec.summarize } : {}),
    ...(spec.failureText ? { failureText: spec.failureText } : {}),
  };
  return Object.freeze(tool);
}

/**
 * Refuses a schema from a zod major other than 4 at setup, with the version to use, instead of a `Cannot read
 * properties of undefined` on the first call or JSON Schema export (zod 4 schemas carry `_zod`; zod 3 ones do not).
 */
function requireZod4(tool: string, which: string, schema: unknown): void {
  if (typeof schema === 'object' && schema !== null && '_zod' in schema) return;
  const hint =
    typeof schema === 'object' && schema !== null && '_def' in schema ? ' (it looks like a zod 3 schema)' : '';
  throw new ConfigurationError(
    `Tool ${tool}'s ${which} schema is not a zod 4 schema${hint}. bough needs zod 4 (zod@^4.3.0, its peer range): ` +
      "install zod 4, or with zod 3.25 import from 'zod/v4'.",
  );
}

function freezeHooks(hooks: ToolHooks): ToolHooks {
  return Object.freeze({
    pre: Object.freeze([...(hooks.pre ?? [])]),
    post: Object.freeze([...(hooks.post ?? [])]),
    error: Object.freeze([...(hooks.error ?? [])]),
  });
}

/** Returns a new frozen tool with extra hooks appended after the tool's own (the original is untouched). */
export function withHooks<REQ, RES>(tool: Tool<REQ, RES>, hooks: ToolHooks): Tool<REQ, RES> {
  return defineTool({
    ...tool,
    hooks: {
      pre: [...(tool.hooks?.pre ?? []), ...(hooks.pre ?? [])],
      post: [...(tool.hooks?.post ?? []), ...(hooks.post ?? [])],
      error: [...(tool.hooks?.error ?? []), ...(hooks.error ?? [])],
    },
  } as ToolSpec<REQ, RES>);
}

/** True when a value looks like a {@link Tool}. */
export function isTool(value: unknown): value is Tool {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Tool).name === 'string' &&
    typeof (value as Tool).handler === 'function' &&
    typeof (value as Tool).request === 'object'
  );
}
