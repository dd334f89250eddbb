import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { ToolRegistry } from '@bough/core';

/**
 * The watchdog: a tiny shell that collects `pid:starttime` lines on its stdin and, once the stdin reaches its end
 * (the server exited or was killed, even by SIGKILL, since the kernel closes the pipe's write end then), kills the
 * process group of every listed process that is still the same process (same start time, so a reused pid is never
 * hit). A shell because it costs a few hundred KiB and no start-up time; it runs detached, in its own session, so a
 * Ctrl-C or hang-up meant for the server does not end it first.
 */
const SCRIPT = `set -f
list=''
while IFS= read -r line; do list="$list $line"; done
for entry in $list; do
  pid=\${entry%%:*}
  start=\${entry#*:}
  { read -r stat < "/proc/$pid/stat"; } 2>/dev/null || continue
  set -- \${stat##*) }
  [ "$#" -ge 20 ] || continue
  shift 19
  [ "$1" = "$start" ] && kill -s KILL -- "-$pid" 2>/dev/null
done
exit 0
`;

/** Hands the process groups this process started to a watchdog that outlives it. */
export interface JobWatchdog {
  /** Looks for process groups started by this process since the last look and hands them to the watchdog. */
  note(): void;
}

/**
 * Registry hooks handing every background job bash started to the watchdog (a look through /proc costs ~10 ms on a
 * busy machine, so plain commands, which end with their call, are not looked for).
 */
export function watchBackgroundJobs(registry: ToolRegistry, watchdog: JobWatchdog): void {
  registry.addHooks('bash', {
    post: [
      ({ args }) => {
        if ((args as { background?: unknown } | null)?.background === true) watchdog.note();
      },
    ],
  });
}

const NONE: JobWatchdog = Object.freeze({ note: () => {} });

/**
 * A watchdog that ends this process's background jobs if the process dies without ending them itself (SIGKILL, a
 * crash): Node cannot ask the kernel to signal its children on its death (no prctl), and a job runs in a process
 * group of its own, so nothing else would stop it before its lifetime. Jobs inside bubblewrap are covered by its
 * `--die-with-parent` as well. The shell starts on the first {@link JobWatchdog.note}, so a server that never runs a
 * command never starts one. Linux only (it reads /proc); elsewhere a no-op.
 */
export function jobWatchdog(): JobWatchdog {
  if (process.platform !== 'linux') return NONE;
  let child: ChildProcess | undefined;
  let failed = false;
  const told = new Set<string>();
  return {
    note() {
      if (failed) return;
      child ??= start();
      if (!child?.stdin || child.stdin.destroyed) {
        failed = true;
        return;
      }
      for (const entry of groupLeaders(process.pid, child.pid)) {
        if (told.has(entry)) continue;
        told.add(entry);
        child.stdin.write(`${entry}\n`);
      }
    },
  };
}

function start(): ChildProcess | undefined {
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-c', SCRIPT], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  } catch {
    return undefined;
  }
  child.on('error', () => {});
  child.stdin?.on('error', () => {});
  child.unref();
  // The pipe must not keep this process alive either; its write end closes when this process ends, however it ends.
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return child;
}

/** `pid:starttime` of every child of `parent` that leads its own process group (how jobs and commands are started). */
function groupLeaders(parent: number, skip: number | undefined): string[] {
  const found: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === skip) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // gone meanwhile
    }
    // Fields after the command name: state, ppid, pgrp, …, starttime (the 20th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === parent && fields[2] === entry && fields[19]) found.push(`${entry}:${fields[19]}`);
  }
  return found;
}
