import { lstatSync } from 'node:fs';
import { relative } from 'node:path';
import type { ScannedEntry, WorkspaceScan } from './workspace-scan.js';

/**
 * Keeps what a command must not read hidden by identity, not only by name. A bind mount covers one inode: when the
 * host replaces a hidden file while the command runs (an editor's save writes a new file and renames it over the old
 * one), deletes it or re-creates it, the path inside the sandbox leads to the new file, which no mount covers. So the
 * dev and inode of every hidden entry are recorded at the start and compared whenever the output is about to be
 * shown; any difference, and any hidden path that appeared, withholds the output. The mount keeps the old inode
 * alive while the sandbox runs, so its number cannot be reused by a new file meanwhile.
 */
export class WatchedIdentities {
  readonly #known = new Map<string, string>();

  constructor(start: WorkspaceScan) {
    for (const entry of [...start.hiddenFiles, ...start.hiddenDirs]) this.#known.set(entry.path, identity(entry));
  }

  /** A message saying why the output is withheld, or undefined when every hidden entry is still the one covered. */
  check(root: string, now: WorkspaceScan): string | undefined {
    for (const [path, was] of this.#known) {
      let current: string | undefined;
      try {
        const st = lstatSync(path);
        current = `${st.dev}:${st.ino}`;
      } catch {
        current = undefined;
      }
      if (current !== was) {
        return (
          `A hidden file (${JSON.stringify(relative(root, path))}) was replaced, removed or re-created while the ` +
          'command ran, so the sandbox may not have covered its new content; the output is withheld. Run the command again.'
        );
      }
    }
    const fresh = [...now.hiddenFiles, ...now.hiddenDirs].filter((entry) => !this.#known.has(entry.path));
    if (fresh.length === 0) return undefined;
    return (
      `A protected file appeared in the workspace while the command ran (${fresh.length} new, for example ` +
      `${JSON.stringify(relative(root, (fresh[0] as ScannedEntry).path))}); the sandbox could only hide the ones that existed ` +
      'when it started, so the output is withheld. Run the command again: files that exist now will be hidden from it.'
    );
  }
}

function identity(entry: ScannedEntry): string {
  return `${entry.dev}:${entry.ino}`;
}

// Variables that point a program at a host socket or agent. The sockets themselves are unreachable in the sandbox
// (hidden directories, own network namespace), and a name that says where they are has no use inside.
const SOCKET_VARIABLES = [
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'DBUS_SESSION_BUS_ADDRESS',
  'DBUS_SYSTEM_BUS_ADDRESS',
  'DOCKER_HOST',
  'DOCKER_CONTEXT',
  'CONTAINER_HOST',
  'PODMAN_HOST',
  'XDG_RUNTIME_DIR',
  'WAYLAND_DISPLAY',
  'DISPLAY',
  'PULSE_SERVER',
  'KRB5CCNAME',
  'BUILDKIT_HOST',
];

/** The environment without the variables that name host sockets or agents. */
export function withoutSocketVariables(env: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (!SOCKET_VARIABLES.includes(name)) result[name] = value;
  return result;
}
