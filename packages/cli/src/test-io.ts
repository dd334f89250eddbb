import type { CliIO } from './output.js';

/** An in-memory CliIO for tests: everything written is collected; `extra` overrides fields such as `isTTY`. */
export function captureIO(
  cwd: string,
  env: Record<string, string | undefined> = {},
  extra: Partial<CliIO> = {},
): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    isTTY: false,
    cwd,
    env,
    ...extra,
    out: () => out,
    err: () => err,
  };
}
