#!/usr/bin/env node
import { parseArgs } from './args.js';
import { EXIT_STDOUT_CLOSED, SIGNAL_EXIT_CODES, type StopSignal } from './exit-codes.js';
import { main } from './main.js';
import { readAll } from './stdin.js';

// The first SIGINT/SIGTERM/SIGHUP aborts the running command (the signal reaches the tool, which stops its
// processes); a second one exits at once. Exiting through process.exit (not the default signal action) still runs
// the exit handlers, and the job store's handler kills every background job's process group on the way out.
const controller = new AbortController();
/** How long the process may linger after the command returned before it exits regardless. */
const LINGER_MS = 1_000;
let exitCode: number | undefined;
const stopOn = (name: StopSignal) =>
  process.on(name, () => {
    if (exitCode !== undefined) process.exit(exitCode);
    exitCode = SIGNAL_EXIT_CODES[name];
    controller.abort(new Error(name === 'SIGINT' ? 'interrupted' : 'terminated'));
  });
for (const name of Object.keys(SIGNAL_EXIT_CODES) as StopSignal[]) stopOn(name);

// A reader that stops early (`bough call … | head`) closes our stdout: the command is stopped quietly with its own
// exit code instead of an unhandled EPIPE with a stack trace. `bough mcp` is the exception: a client closing the pipe
// is how a session may end, and the server handles that itself (exit 0). A broken stderr has nobody left to tell.
const serving = commandOf(process.argv.slice(2)) === 'mcp';
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (serving || exitCode !== undefined) return;
  exitCode = EXIT_STDOUT_CLOSED;
  controller.abort(new Error(error.code === 'EPIPE' ? 'stdout closed' : `stdout failed: ${error.message}`));
});
process.stderr.on('error', () => {});

const code = await main(
  process.argv.slice(2),
  {
    stdout: (text) => {
      if (!process.stdout.destroyed) process.stdout.write(text);
    },
    stderr: (text) => {
      if (!process.stderr.destroyed) process.stderr.write(text);
    },
    isTTY: Boolean(process.stderr.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    input: process.stdin,
    inputIsTTY: Boolean(process.stdin.isTTY),
    cwd: process.cwd(),
    env: process.env,
    readStdin: (maxBytes) => readAll(process.stdin, maxBytes),
  },
  controller.signal,
);
// Interrupted runs exit with the shell's convention (128 + signal number), whatever the command returned. A write
// that failed reports it on a later tick: let that arrive before the exit code is chosen.
await new Promise((resolve) => setImmediate(resolve));
process.exitCode = exitCode ?? code;
// The process ends once what the command stopped has gone (a killed command's pipes close as it dies). Whatever still
// holds it a moment later, such as a background job an agent left running, must not keep it alive: exit then, and
// the job store's exit handler kills those jobs' process groups on the way out.
setTimeout(() => process.exit(), LINGER_MS).unref();

function commandOf(argv: readonly string[]): string | undefined {
  try {
    return parseArgs(argv).command;
  } catch {
    return undefined;
  }
}
