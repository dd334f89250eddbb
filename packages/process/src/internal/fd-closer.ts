import { existsSync, readdirSync, readFileSync } from 'node:fs';

// bubblewrap passes every descriptor it inherits to the command, and so does Node's spawn: libuv opens its own
// descriptors close-on-exec, but one the host process inherited without that flag (a parent shell's `exec 200>lock`,
// a socket handed down by a supervisor) reaches the sandboxed program, which can then write to a file outside the
// workspace through it. Node has no fcntl, and closing those descriptors in the host would break an embedding
// program that uses them. Two ways keep them from the command, both only when the host actually holds such a
// descriptor (the usual case is none):
// - up to three: the spawn puts a fresh pipe of ours at each of those numbers (so the host's descriptor never reaches
//   bwrap at all), and bwrap is given them as its --info-fd, --json-status-fd and --sync-fd, which it writes or holds
//   itself and closes before it runs the command. No extra process, so no extra start-up cost.
// - more: the command is started through a tiny bash closer inside the sandbox (about a millisecond more).

/** bwrap options that take a descriptor and close it before the command runs; the first also names the init's pid. */
export const CLOSING_OPTIONS = ['--info-fd', '--json-status-fd', '--sync-fd'] as const;

const O_CLOEXEC = 0o2000000;

/** Descriptors of this process, 3 and up, that a spawned child would inherit (no close-on-exec flag). */
export function inheritableDescriptors(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd < 3) continue;
    try {
      const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'));
      if (flags && (Number.parseInt(flags[1] as string, 8) & O_CLOEXEC) === 0) found.push(fd);
    } catch {
      // closed meanwhile (for example the directory handle of the listing above)
    }
  }
  return found;
}

/** A bash found on the host (the sandbox sees the host's /usr read-only, so the same path works inside). */
export function closerShell(): string | undefined {
  return ['/usr/bin/bash', '/bin/bash'].find((path) => existsSync(path));
}

// Closes every descriptor above 2 that the shell sees, then replaces itself with the command. dash (Debian's sh)
// cannot name descriptors above 9 in a redirection, hence bash.
const CLOSER_SCRIPT =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
  'for f in /proc/self/fd/*; do n=${f##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-" 2>/dev/null; fi; done; exec "$@"';

/** The argv that runs `program` with `args` after closing every inherited descriptor above 2. */
export function closerArgv(shell: string, program: string, args: readonly string[]): string[] {
  return [shell, '--noprofile', '--norc', '-c', CLOSER_SCRIPT, 'bough-fd-closer', program, ...args];
}
