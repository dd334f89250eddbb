import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The sandbox binds one empty, mode-000 host file over every file it hides. bubblewrap can only bind what exists on
// the host, so the file lives in a temp directory of this process. Its name carries the owning pid
// (`bough-sandbox-<pid>-XXXXXX`): a process killed by a signal never runs its exit handler, so the next process that
// needs a blank file removes the directories of owners that are gone. No signal handlers are installed: a library
// must not change how its host reacts to signals.
const PREFIX = 'bough-sandbox-';
let blank: string | undefined;

/** The blank file of this process, made (and stale ones of dead processes swept) on first use. */
export function blankFile(): string {
  if (blank && existsSync(blank)) return blank;
  sweepStale(tmpdir());
  const dir = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  const file = join(dir, 'hidden');
  writeFileSync(file, '');
  chmodSync(file, 0o000);
  blank = file;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return file;
}

/** Removes `bough-sandbox-<pid>-*` directories in `dir` that belong to this user and whose process no longer runs. */
export function sweepStale(dir: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const match = /^bough-sandbox-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process with that pid exists (another user's); only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
