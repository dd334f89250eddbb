import type { z } from 'zod';
import type { BranchView } from './branch-view.js';
import { CallErrorCode, describeZodError, errorMessage } from './errors.js';
import { failure, type ToolFailure } from './failure.js';
import { heartbeat } from './internal/heartbeat.js';
import { newId } from './internal/ids.js';
import { type ParsedRequest, takeParsedRequest } from './parsed-request.js';
import { effectiveTimeout } from './timeout.js';
import type { ErrorHook, PostHook, PreHook, Tool, ToolContext, ToolHooks, ToolProgress } from './tool.js';
import { touchesOf } from './touches.js';

/** Lifecycle of one tool call. */
export type ToolCallStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';

/** Why a call did not complete normally. */
export interface ToolCallError {
  readonly code: string;
  readonly message: string;
}

/** Options for one execution. */
export interface ExecuteOptions {
  readonly signal?: AbortSignal;
  /**
   * Milliseconds before the call is abandoned as `timed_out`; the handler's signal is aborted too. The one timeout
   * rule applies ({@link effectiveTimeout}): a value that is missing, not positive or not finite (0, negative, NaN,
   * `Infinity`) means the default, which for a call is no timeout; finite values above `MAX_TIMEOUT_MS` wait
   * that long instead.
   */
  readonly timeoutMs?: number;
  readonly callId?: string;
  readonly branch?: BranchView;
  /** Extra hooks that run before the tool's own (registry-level hooks). */
  readonly hooks?: readonly ToolHooks[];
  readonly progress?: (update: ToolProgress) => void;
  /**
   * These arguments as {@link parseToolRequest} already parsed them, for a caller that had to parse them first (the
   * MCP roots router reads a call's `touches` to pick the root). Used instead of parsing again only when core made it
   * from these very arguments (the same object) with the called tool's own request schema, and only once; anything
   * else, an object merely shaped like one included, is ignored and the arguments are parsed as usual.
   */
  readonly parsed?: ParsedRequest;
}

const NEVER_ABORTED = new AbortController().signal;

/**
 * One tool invocation moving pending → processing → completed | failed | cancelled.
 * `output` is always model-readable after it settles: the handler's result, or a failure value.
 */
export class ToolCall<RES = unknown> {
  readonly id: string;
  readonly name: string;
  /** Arguments as received (before validation or rewriting). */
  readonly rawArgs: unknown;
  /** Arguments the handler actually saw (after validation and pre-hook rewrites). */
  args: unknown;
  status: ToolCallStatus = 'pending';
  output: RES | ToolFailure | undefined;
  error: ToolCallError | undefined;
  startedAt = 0;
  durationMs = 0;
  /** Errors thrown by post hooks; they never change the result. */
  readonly hookErrors: string[] = [];

  constructor(name: string, rawArgs: unknown, id: string = newId()) {
    this.id = id;
    this.name = name;
    this.rawArgs = rawArgs;
    this.args = rawArgs;
  }

  /** True when the call completed (the tool may still report an expected failure inside its output). */
  get ok(): boolean {
    return this.status === 'completed';
  }

  /** Marks the call failed with a typed error and a failure output. */
  fail(code: string, message: string, status: 'failed' | 'cancelled' = 'failed'): this {
    this.status = status;
    this.error = { code, message };
    this.output = failure(code, message);
    return this;
  }
}

/** Runs a tool through the full pipeline: validate → pre hooks → validate → handler → post hooks | error hooks. */
export async function executeTool<REQ, RES>(
  tool: Tool<REQ, RES>,
  rawArgs: unknown,
  options: ExecuteOptions = {},
): Promise<ToolCall<RES>> {
  const call = new ToolCall<RES>(tool.name, rawArgs, options.callId);
  call.startedAt = Date.now();
  const t0 = performance.now();
  call.status = 'processing';
  try {
    await runPipeline(tool, call, options);
  } catch (error) {
    // Only a bug in a hook or the pipeline can land here; it still becomes a readable failure.
    call.fail(CallErrorCode.handlerError, `Tool ${tool.name} failed unexpectedly: ${errorMessage(error)}`);
  }
  call.durationMs = performance.now() - t0;
  return call;
}

async function runPipeline<REQ, RES>(
  tool: Tool<REQ, RES>,
  call: ToolCall<RES>,
  options: ExecuteOptions,
): Promise<void> {
  const hookSets =
    options.hooks && options.hooks.length > 0 ? [...options.hooks, tool.hooks] : tool.hooks ? [tool.hooks] : [];
  const base = { tool: tool as Tool, callId: call.id, ...(options.branch ? { branch: options.branch } : {}) };

  const earlier =
    options.parsed === undefined ? undefined : takeParsedRequest(options.parsed, tool.request, call.rawArgs);
  let parsed = earlier ? { success: true as const, data: earlier.data as REQ } : tool.request.safeParse(call.rawArgs);
  if (!parsed.success) {
    call.fail(CallErrorCode.invalidRequest, `Invalid arguments for ${tool.name}: ${describeZodError(parsed.error)}`);
    return;
  }
  let args: REQ = parsed.data;
  // Whether a pre hook saw the arguments: one could have changed them in place, so the handler must parse them again.
  let hooked = false;
  // What the arguments touch, worked out once and handed to every hook (and, unhooked, to the handler).
  let touches = touchesOf(tool, args);

  for (const set of hookSets) {
    for (const hook of set?.pre ?? []) {
      hooked = true;
      const pending = runPreHook(hook, { ...base, args, ...(touches ? { touches } : {}) });
      const verdict = isThenable(pending) ? await pending : pending;
      if (verdict.deny !== undefined) {
        call.args = args;
        call.fail(CallErrorCode.denied, `Call to ${tool.name} denied: ${verdict.deny}`);
        return;
      }
      if (verdict.args !== undefined) {
        parsed = tool.request.safeParse(verdict.args);
        if (!parsed.success) {
          call.fail(
            CallErrorCode.denied,
            `A pre hook rewrote the arguments of ${tool.name} into an invalid request: ${describeZodError(parsed.error)}`,
          );
          return;
        }
        args = parsed.data;
        touches = touchesOf(tool, args);
      }
    }
  }
  call.args = args;
  // A fresh parse output nobody else has touched: the handler is told (context.parsedBy) and need not parse it again.
  const fresh = !hooked && args !== call.rawArgs;
  const given = fresh ? { parsedBy: tool.request as z.ZodType, ...(touches ? { touches } : {}) } : undefined;

  const beat = options.progress ? heartbeat(options.progress) : undefined;
  let outcome: HandlerOutcome;
  try {
    outcome = await runHandler(tool, args, call, beat ? { ...options, progress: beat.progress } : options, given);
  } finally {
    beat?.stop();
  }
  if (outcome.kind === 'cancelled') {
    call.fail(outcome.code, outcome.message, 'cancelled');
    return;
  }
  if (outcome.kind === 'threw') {
    for (const set of hookSets) {
      for (const hook of set?.error ?? []) {
        const mapped = await runErrorHook(hook, { ...base, args, error: outcome.error });
        if (mapped) {
          call.status = 'completed';
          call.output = mapped.result as RES;
          return;
        }
      }
    }
    call.fail(CallErrorCode.handlerError, `Tool ${tool.name} raised an error: ${errorMessage(outcome.error)}`);
    return;
  }

  let result: unknown = outcome.value;
  for (const set of hookSets) {
    for (const hook of set?.post ?? []) {
      const next = runPostHook(hook, { ...base, args, result }, call);
      result = isThenable(next) ? await next : next;
    }
  }
  call.status = 'completed';
  call.output = result as RES;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

const ALLOW: { deny?: string; args?: unknown } = Object.freeze({});

function runPreHook(
  hook: PreHook,
  input: Parameters<PreHook>[0],
): { deny?: string; args?: unknown } | Promise<{ deny?: string; args?: unknown }> {
  try {
    const verdict = hook(input);
    // Synchronous hooks (the common case) are judged without a microtask per hook.
    if (!isThenable(verdict)) return judgePre(verdict);
    return Promise.resolve(verdict).then(judgePre, (error: unknown) => ({
      deny: `a pre hook failed (${errorMessage(error)}); failing closed`,
    }));
  } catch (error) {
    return { deny: `a pre hook failed (${errorMessage(error)}); failing closed` };
  }
}

function judgePre(verdict: Awaited<ReturnType<PreHook>>): { deny?: string; args?: unknown } {
  if (verdict === undefined || verdict === null) return ALLOW;
  if (typeof verdict !== 'object') return { deny: 'a pre hook returned an unrecognised verdict; failing closed' };
  if (verdict.decision === 'deny') return { deny: verdict.reason || 'no reason given' };
  if (verdict.decision !== undefined && verdict.decision !== 'allow') {
    return { deny: `a pre hook returned the unknown decision ${JSON.stringify(verdict.decision)}; failing closed` };
  }
  return 'args' in verdict && verdict.args !== undefined ? { args: verdict.args } : ALLOW;
}

function runPostHook(hook: PostHook, input: Parameters<PostHook>[0], call: ToolCall): unknown {
  const failed = (error: unknown) => {
    call.hookErrors.push(errorMessage(error));
    return input.result;
  };
  try {
    const next = hook(input);
    if (!isThenable(next)) return next === undefined ? input.result : next;
    return Promise.resolve(next).then((value) => (value === undefined ? input.result : value), failed);
  } catch (error) {
    return failed(error);
  }
}

async function runErrorHook(
  hook: ErrorHook,
  input: Parameters<ErrorHook>[0],
): Promise<{ result: unknown } | undefined> {
  try {
    const mapped = await hook(input);
    return mapped && typeof mapped === 'object' && 'result' in mapped ? mapped : undefined;
  } catch {
    return undefined;
  }
}

type HandlerOutcome =
  | { kind: 'value'; value: unknown }
  | { kind: 'threw'; error: unknown }
  | { kind: 'cancelled'; code: string; message: string };

async function runHandler<REQ, RES>(
  tool: Tool<REQ, RES>,
  args: REQ,
  call: ToolCall<RES>,
  options: ExecuteOptions,
  given: Pick<ToolContext, 'parsedBy' | 'touches'> | undefined,
): Promise<HandlerOutcome> {
  const outer = options.signal;
  const delay = effectiveTimeout(options.timeoutMs, undefined);
  if (!outer && delay === undefined) {
    // Fast path: nothing can cancel this call.
    try {
      const value = await tool.handler(args, context(call, NEVER_ABORTED, options, given));
      return { kind: 'value', value };
    } catch (error) {
      return { kind: 'threw', error };
    }
  }
  if (outer?.aborted) return { kind: 'cancelled', code: CallErrorCode.aborted, message: abortText(tool.name, outer) };
  const timedOut = (): HandlerOutcome => ({
    kind: 'cancelled',
    code: CallErrorCode.timedOut,
    message: `Tool ${tool.name} did not finish within ${delay} ms and was cancelled.`,
  });

  // Only a timeout needs a signal of our own; a call only the caller can cancel hands the handler the caller's signal,
  // which aborts exactly when one of ours, aborted from it, would.
  const controller = delay === undefined ? undefined : new AbortController();
  const signal = controller?.signal ?? (outer as AbortSignal);
  let timer: NodeJS.Timeout | undefined;
  let settle: (outcome: HandlerOutcome) => void = () => {};
  const cancelled = new Promise<HandlerOutcome>((resolve) => {
    settle = resolve;
  });
  const onOuterAbort = () => {
    controller?.abort(outer?.reason);
    settle({ kind: 'cancelled', code: CallErrorCode.aborted, message: abortText(tool.name, outer) });
  };
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  if (delay !== undefined) {
    timer = setTimeout(() => {
      controller?.abort(new Error('timed out'));
      settle(timedOut());
    }, delay);
  }
  const running = (async (): Promise<HandlerOutcome> => {
    try {
      return { kind: 'value', value: await tool.handler(args, context(call, signal, options, given)) };
    } catch (error) {
      return { kind: 'threw', error };
    }
  })();
  try {
    return await Promise.race([running, cancelled]);
  } finally {
    if (timer) clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

function context(
  call: ToolCall,
  signal: AbortSignal,
  options: ExecuteOptions,
  given: Pick<ToolContext, 'parsedBy' | 'touches'> | undefined,
): ToolContext {
  return {
    signal,
    callId: call.id,
    ...(options.branch ? { branch: options.branch } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
    ...given,
  };
}

function abortText(name: string, signal: AbortSignal | undefined): string {
  const reason = signal?.reason;
  const why = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : '';
  return `Call to ${name} was cancelled${why ? `: ${why}` : ''}.`;
}
