import type { ToolProgress } from '../tool.js';

/**
 * How long a call may stay silent before the caller hears that it is still running. Hosts reset their request
 * timeout on each progress notification and show it to the person waiting; a second is long enough that quick calls
 * send nothing and short enough that a slow one is never mute.
 */
export const HEARTBEAT_MS = 1_000;

/**
 * Wraps a caller's progress sink for one call: the tool's own reports pass through, and whenever the tool said
 * nothing for {@link HEARTBEAT_MS} a report of the time it has run goes out in its place, so every
 * tool that runs longer than a second is heard, including ones with nothing to count (an LSP query, a job wait).
 * `stop` ends the heartbeat when the call settles.
 */
export function heartbeat(progress: (update: ToolProgress) => void): {
  progress: (update: ToolProgress) => void;
  stop: () => void;
} {
  const started = Date.now();
  let last = started;
  const safe = (update: ToolProgress) => {
    last = Date.now();
    try {
      progress(update);
    } catch {
      // A broken progress consumer must not disturb the call.
    }
  };
  const timer = setInterval(() => {
    if (Date.now() - last < HEARTBEAT_MS) return;
    safe({ message: `running for ${Math.round((Date.now() - started) / 1000)} s`, heartbeat: true });
  }, HEARTBEAT_MS);
  timer.unref();
  return { progress: safe, stop: () => clearInterval(timer) };
}
