import { existsSync, lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { relative, sep } from 'node:path';
import type { WorkspaceScan } from './workspace-scan.js';

/** What the bubblewrap command line is built from. */
export interface BwrapPlan {
  readonly workspaceRoot: string;
  readonly cwd: string;
  readonly network: boolean;
  readonly userNamespace: boolean;
  readonly readOnlyPaths: readonly string[];
  readonly scan: WorkspaceScan;
  /** Mounts that keep git directories un-renameable and their control files read-only (see git-guard). */
  readonly gitBinds: readonly string[];
  /** An empty file with mode 000, bound over every hidden file. */
  readonly blankFile: string;
  /** The host directories replaced by empty ones ({@link hiddenRoots}, looked up once per command). */
  readonly hiddenRoots: readonly string[];
  /** The descriptor options (`--info-fd N`, …) of the pipes the spawn hands bwrap (see fd-closer). */
  readonly descriptors: readonly string[];
}

/** Host directories replaced by empty ones: other users' data, the caller's home, temp dirs and runtime sockets. */
export function hiddenRoots(): string[] {
  const home = homedir();
  return ['/home', '/root', home, '/tmp', '/var/tmp', '/run', '/var/run', '/mnt', '/media'].filter(
    (dir, at, all) => all.indexOf(dir) === at && isRealDirectory(dir),
  );
}

function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** True when `path` is `dir` or inside it. */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/**
 * The bwrap options, in mount order: the host read-only, fresh /dev and /proc, the hidden roots as empty tmpfs,
 * the workspace writable on top, then the git mounts, deny-write matches read-only, and hidden names overmounted.
 */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  args.push(...plan.descriptors);
  if (plan.userNamespace) args.push('--unshare-user', '--disable-userns');
  if (!plan.network) args.push('--unshare-net');
  args.push('--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  for (const dir of plan.hiddenRoots) args.push('--tmpfs', dir);
  if (plan.network && existsSync('/run/systemd/resolve')) {
    args.push('--ro-bind', '/run/systemd/resolve', '/run/systemd/resolve');
  }
  for (const path of plan.readOnlyPaths) if (existsSync(path)) args.push('--ro-bind', path, path);
  const root = plan.workspaceRoot;
  args.push('--bind', root, root, ...plan.gitBinds);
  for (const entry of plan.scan.readOnly) args.push('--ro-bind', entry.path, entry.path);
  for (const entry of plan.scan.hiddenFiles) args.push('--ro-bind', plan.blankFile, entry.path);
  for (const entry of plan.scan.hiddenDirs)
    args.push('--perms', '0000', '--tmpfs', entry.path, '--remount-ro', entry.path);
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', plan.cwd);
  return args;
}
