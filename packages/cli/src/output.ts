import type { ToolProgress } from '@bough/core';
import type { CliLimits } from './limits.js';

/** Where the CLI writes, injectable so tests can capture it. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** True when stderr is a terminal (spinners, live text). */
  readonly isTTY: boolean;
  /** True when stdout is a terminal too (`agent` then does not repeat an answer it already streamed there). */
  readonly stdoutIsTTY?: boolean;
  /** Where `agent` reads approval answers; only used when {@link inputIsTTY} is true. */
  readonly input?: NodeJS.ReadableStream;
  /** True when {@link input} is a terminal a person can answer on. */
  readonly inputIsTTY?: boolean;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads all of stdin (used by `call <tool> -`); absent when there is no stdin to read. */
  readonly readStdin?: (maxBytes: number) => Promise<string>;
  /** Overrides for {@link DEFAULT_CLI_LIMITS}; a bad one is a configuration error naming the key (exit 1). */
  readonly limits?: Partial<CliLimits>;
}

/** Spinner frames of every progress line the CLI draws on a terminal. */
export const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A stderr spinner fed by tool progress reports; a no-op unless stderr is a terminal. It redraws on every report
 * whose text changed and animates between reports; `stop` clears the line.
 */
export function progressReporter(io: CliIO, label: string): { update: (p: ToolProgress) => void; stop: () => void } {
  if (!io.isTTY) return { update: () => {}, stop: () => {} };
  let frame = 0;
  let text = label;
  let stopped = false;
  const draw = () => {
    if (!stopped) io.stderr(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${text}`);
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    update(progress) {
      const count =
        progress.completed !== undefined ? ` ${progress.completed}${progress.total ? `/${progress.total}` : ''}` : '';
      const next = `${label}${progress.message ? `: ${progress.message}` : ''}${count}`;
      if (next === text) return;
      text = next;
      draw();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      io.stderr('\r\x1b[2K');
    },
  };
}
