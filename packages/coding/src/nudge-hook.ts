import { isToolFailure, type PostHook } from '@bough/core';
import type { ToolkitState } from './toolkit-state.js';

/** The one field the toolkit adds to a standalone result: a short system note from the nudge engine. */
export const NUDGE_FIELD = 'system_note';

/**
 * Whether a result counts as a success for streak rules: not a tool failure (core's `isToolFailure`), and not a
 * command that ran but failed (timed out, non-zero exit, or no exit code) — bash reports those as successes.
 */
export function resultOk(result: unknown): boolean {
  if (isToolFailure(result)) return false;
  if (typeof result !== 'object' || result === null) return true;
  const value = result as { return_code?: unknown; timed_out?: unknown };
  if (value.timed_out === true) return false;
  if (typeof value.return_code === 'number' && value.return_code !== 0) return false;
  return value.return_code !== null;
}

/** A post hook that records the call and adds the engine's note; any failure inside leaves the result as it was. */
export function nudgePostHook(state: ToolkitState): PostHook {
  return ({ tool, args, result }) => {
    const engine = state.nudges;
    if (!engine || typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
    try {
      const action = (args as { action?: unknown } | null)?.action;
      engine.recordCall(tool.name, typeof action === 'string' ? action : '', resultOk(result));
      const note = engine.evaluate({ filesTracked: state.files.size });
      if (!note) return undefined;
      const previous = (result as Record<string, unknown>)[NUDGE_FIELD];
      return {
        ...result,
        [NUDGE_FIELD]: typeof previous === 'string' && previous !== '' ? `${previous} ${note}` : note,
      };
    } catch {
      return undefined;
    }
  };
}
