#!/usr/bin/env node
import { parseArgs } from './args.js';
import { EXIT_STDOUT_CLOSED, SIGNAL_EXIT_CODES, type StopSignal } from './exit-codes.js';
import { main } from './main.js';
import { readAll } from './stdin.js';

// The first SIGINT/SIGTERM/SIGHUP aborts the running command (the signal reaches the tool, which stops its
// processes); a second one exits at once. Exiting through process.exit (not the default signal action) still runs
// the exit handlers, and the job store's handler kills every background job's process group on the way out.
const controller = new AbortController();
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
// Interrupted runs exit with the shell's convention (128 + signal number), whatever the command returned. The command
// is over: what it left behind (a background job's pipes, a timer) must not keep the process alive, so exit once the
// output is flushed.
// A write that failed reports it on a later tick: let that arrive before the exit code is chosen.
await new Promise((resolve) => setImmediate(resolve));
const final = exitCode ?? code;
if (process.stdout.destroyed || process.stdout.writableLength === 0) process.exit(final);
process.stdout.write('', () => process.exit(final));

function commandOf(argv: readonly string[]): string | undefined {
  try {
    return parseArgs(argv).command;
  } catch {
    return undefined;
  }
}
