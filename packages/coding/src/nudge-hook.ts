import type { PostHook } from '@bough/core';
import type { ToolkitState } from './toolkit-state.js';

/** The one field the toolkit adds to a standalone result: a short system note from the nudge engine. */
export const NUDGE_FIELD = 'system_note';

/** Whether a result counts as a success for streak rules (typed failure, non-zero exit and error status do not). */
export function resultOk(result: unknown): boolean {
  if (typeof result !== 'object' || result === null) return true;
  const value = result as { success?: unknown; return_code?: unknown; timed_out?: unknown; status?: unknown };
  if (value.success === false) return false;
  if (value.timed_out === true) return false;
  if (typeof value.return_code === 'number' && value.return_code !== 0) return false;
  if (value.return_code === null) return false;
  return value.status !== 'error' && value.status !== 'unavailable';
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
