/** The part of the CLI's `CliIO` that {@link captureIO} fills in (structural, so test-utils needs no CLI import). */
export interface CapturedIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  isTTY: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
}

/**
 * An in-memory `CliIO` for tests: everything written is collected; `extra` adds or overrides fields such as `isTTY`
 * or `readStdin`.
 */
export function captureIO<Extra extends object = Record<never, never>>(
  cwd: string,
  env: Record<string, string | undefined> = {},
  extra: Extra = {} as Extra,
): CapturedIO & Extra & { out: () => string; err: () => string } {
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
