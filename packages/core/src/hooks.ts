import type { Tool } from './tool.js';

/** What every hook sees about the call in flight. */
export interface HookCall {
  readonly tool: Tool;
  readonly callId: string;
  readonly branch?: import('./branch.js').Branch;
}

/** A pre hook's verdict: continue (optionally with rewritten arguments) or deny with a reason for the model. */
export type PreHookResult =
  | undefined
  | void
  | { readonly decision?: 'allow'; readonly args?: unknown }
  | { readonly decision: 'deny'; readonly reason: string };

/** Runs before the handler; may rewrite arguments (validated again) or deny. A throwing pre hook denies. */
export type PreHook = (call: HookCall & { readonly args: unknown }) => PreHookResult | Promise<PreHookResult>;

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
