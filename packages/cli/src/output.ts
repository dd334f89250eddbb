import type { ToolProgress } from '@branchkit/core';

/** Where the CLI writes, injectable so tests can capture it. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly isTTY: boolean;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** True when a tool output reports a failure (standard failure values, or the check/ast_search status enum). */
export function isFailureOutput(output: unknown): boolean {
  if (typeof output !== 'object' || output === null) return false;
  const value = output as { success?: unknown; status?: unknown };
  return value.success === false || value.status === 'error' || value.status === 'unavailable';
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A stderr spinner fed by tool progress reports; a no-op unless stderr is a terminal. */
export function progressReporter(io: CliIO, label: string): { update: (p: ToolProgress) => void; stop: () => void } {
  if (!io.isTTY) return { update: () => {}, stop: () => {} };
  let frame = 0;
  let text = label;
  const draw = () => io.stderr(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${text}`);
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    update(progress) {
      const count =
        progress.completed !== undefined ? ` ${progress.completed}${progress.total ? `/${progress.total}` : ''}` : '';
      text = `${label}${progress.message ? `: ${progress.message}` : ''}${count}`;
    },
    stop() {
      clearInterval(timer);
      io.stderr('\r\x1b[2K');
    },
  };
}
