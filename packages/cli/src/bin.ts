#!/usr/bin/env node
import { main } from './main.js';
import { readAll } from './stdin.js';

// The first SIGINT/SIGTERM aborts the running command (the signal reaches the tool, which stops its processes);
// a second one falls back to Node's default and ends the process at once.
const controller = new AbortController();
let exitSignal: number | undefined;
const stopOn = (name: 'SIGINT' | 'SIGTERM', code: number) =>
  process.once(name, () => {
    exitSignal = code;
    controller.abort(new Error(name === 'SIGINT' ? 'interrupted' : 'terminated'));
  });
stopOn('SIGINT', 130);
stopOn('SIGTERM', 143);

const code = await main(
  process.argv.slice(2),
  {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
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
// Interrupted runs exit with the shell's convention (128 + signal number), whatever the command returned.
process.exitCode = exitSignal ?? code;
