import { describeZodError, parseOnce, type ToolContext, type ToolProgress } from '@bough/core';
import { checkSandboxSettings, clampTimeout, runProcess, splitCommand } from '@bough/process';
import { startBackgroundJob } from './background.js';
import type { BashCallOptions } from './bash-options.js';
import { failure } from './errors.js';
import { resolveBashLimits } from './limits.js';
import { sandboxSettings } from './sandbox-settings.js';
import { type BashInput, BashRequest, type BashResponse, type BashResponseFor } from './schema.js';

/**
 * Runs one command without a shell inside the workspace; never throws for an expected failure, so a model always
 * gets a value it can read and act on. The answer's type follows the request: `background: true` gives a job
 * handle, a foreground run its output.
 */
export async function handleBash<R extends BashInput>(
  request: R,
  options: BashCallOptions & Pick<ToolContext, 'parsedBy'>,
): Promise<BashResponseFor<R>> {
  return (await bashResponse(request, options)) as BashResponseFor<R>;
}

async function bashResponse(
  request: BashInput,
  options: BashCallOptions & Pick<ToolContext, 'parsedBy'>,
): Promise<BashResponse> {
  const parsed = parseOnce(BashRequest, request, options.parsedBy);
  if (!parsed.success) return failure('invalid_request', `Invalid bash request: ${describeZodError(parsed.error)}`);
  const { command, timeout, cwd, background } = parsed.data;
  const limits = resolveBashLimits(options.limits);

  if (command.length > limits.maxCommandLength) {
    return failure(
      'command_too_long',
      `The command is ${command.length} characters long; the limit is ${limits.maxCommandLength}. ` +
        'Put long input in a file (with the editor tool) and pass its name instead.',
    );
  }
  const split = splitCommand(command);
  if (!split.success) return failure(split.error_code, split.error);

  // Without a root runProcess would run anywhere; a tool configured without one refuses every command instead.
  if (typeof options.workspaceRoot !== 'string' || options.workspaceRoot === '') return badRoot();
  if (cwd?.includes('\0')) {
    return failure('invalid_path', 'The cwd contains a NUL character, which no directory name can hold. Remove it.');
  }

  const checked = options.checkedSandbox ?? checkSandboxSettings(sandboxSettings(options, limits));
  const sandbox = checked.open(options.workspaceRoot);
  if (!('wrap' in sandbox)) return failure(sandbox.error_code, sandbox.error);
  if (background === true) return startBackgroundJob(split.argv, command, timeout, cwd, options, sandbox);

  const applied = clampTimeout(timeout, { defaultMs: limits.defaultTimeoutMs, maxMs: limits.maxTimeoutMs });
  // runProcess opens the workspace and checks the cwd (containment, links, protected names, is a directory) once,
  // right before it spawns; its refusal codes come back unchanged.
  const result = await runProcess(split.argv, {
    ...(cwd !== undefined ? { cwd } : {}),
    workspaceRoot: options.workspaceRoot,
    ...(options.linkRule ? { linkRule: options.linkRule } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.baseEnv ? { baseEnv: options.baseEnv } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    timeoutMs: applied.timeoutMs,
    maxOutputBytes: limits.maxOutputBytes,
    drainMs: limits.drainMs,
    killGraceMs: limits.killGraceMs,
    reapWaitMs: limits.reapWaitMs,
    ...(options.progress ? outputCounter(options.progress) : {}),
    wrap: sandbox.wrap,
  });
  if (!result.success) {
    // The cwd was already checked for NULs and emptiness, so `invalid_cwd` here can only mean the root itself.
    return result.error_code === 'invalid_cwd' ? badRoot() : failure(result.error_code, result.error);
  }

  const notes: string[] = [];
  if (applied.note) notes.push(applied.note);
  if (sandbox.note) notes.push(sandbox.note);
  // The command and everything it started are gone (PID namespace): undo what git would run later on the host,
  // then see (on the same scan) whether a hidden file changed or appeared while it ran.
  const repaired = sandbox.finish();
  const withheld = sandbox.check();
  if (withheld) notes.push(withheld);
  if (repaired) notes.push(repaired);
  if (result.timed_out) {
    notes.push(
      `The command did not finish within ${applied.timeoutMs} ms and was stopped with everything it started; ` +
        'the output above is what it printed until then. Raise `timeout` (up to ' +
        `${limits.maxTimeoutMs} ms) or run something smaller.`,
    );
  } else if (result.aborted) {
    notes.push('The call was cancelled; the output above is what the command printed until then.');
  }
  if (result.stdout_binary || result.stderr_binary) {
    notes.push(
      'The output contained binary data (NUL bytes), so the text shown is lossy; ' +
        "view it with `od -c FILE` or `xxd FILE`, or use the program's own output-file option.",
    );
  }
  return {
    success: true,
    stdout: withheld ? '' : result.stdout,
    stderr: withheld ? '' : result.stderr,
    return_code: typeof result.return_code === 'number' ? result.return_code : -1,
    signal: result.signal ?? null,
    timed_out: result.timed_out,
    stdout_truncated: result.stdout_truncated,
    stderr_truncated: result.stderr_truncated,
    timeout_ms: applied.timeoutMs,
    duration_ms: result.duration_ms,
    sandboxed: sandbox.sandboxed,
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
}

function badRoot(): BashResponse {
  return failure(
    'invalid_cwd',
    'The workspace root of this tool is not an existing directory, so no command can run. Ask the user to fix the set-up.',
  );
}

/** Stream observers that report how much output the command has produced, at most a few times a second. */
function outputCounter(progress: (update: ToolProgress) => void) {
  let bytes = 0;
  let last = 0;
  const seen = (chunk: Buffer) => {
    bytes += chunk.length;
    const now = Date.now();
    if (now - last < 200) return;
    last = now;
    try {
      progress({ message: 'output bytes', completed: bytes });
    } catch {
      // A broken progress consumer must not disturb the command.
    }
  };
  return { onStdout: seen, onStderr: seen };
}
