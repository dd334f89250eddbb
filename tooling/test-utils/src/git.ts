import { execFileSync } from 'node:child_process';

/** Identity flags so tests never depend on (or touch) a global git config. */
export const GIT_ID = ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false'];

/** Runs git in a directory for test set-up (argv only, no shell) and returns its standard output. */
export function gitSync(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...GIT_ID, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Makes a directory a git repository on `branch` with one commit of its current files. */
export function initRepo(root: string, branch = 'dev'): void {
  gitSync(root, 'init', '-q', '-b', branch);
  gitSync(root, 'add', '-A');
  gitSync(root, 'commit', '-q', '--allow-empty', '-m', 'initial');
}
