import { npmEnv, type PackagingContext } from './context.js';
import { type RunResult, run } from './run.js';

const MINUTE = 60_000;

function explain(step: string, result: RunResult): string {
  return `${step} exited ${result.code}\n--- stdout\n${result.stdout.slice(-3000)}\n--- stderr\n${result.stderr.slice(-3000)}`;
}

/**
 * Runs one step of a try-out with npm pointed at the run's local registry and cache, and throws with the step's name
 * and the end of its output when it exits non-zero.
 */
export async function must(
  context: PackagingContext,
  step: string,
  command: string,
  args: string[],
  cwd: string,
  extraEnv: Record<string, string> = {},
): Promise<RunResult> {
  const result = await run(command, args, { cwd, env: { ...npmEnv(context), ...extraEnv }, timeoutMs: 5 * MINUTE });
  if (result.code !== 0) throw new Error(explain(step, result));
  return result;
}
