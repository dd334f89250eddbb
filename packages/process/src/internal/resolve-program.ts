import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds the file a program name refers to, the way a shell would, so a missing program is a typed failure before
 * spawn. Names with a `/` are paths (relative to `cwd`); other names are looked up on the child's own PATH, where
 * empty and relative entries are skipped so a file planted in the workspace cannot shadow a system program.
 */
export async function resolveProgram(
  name: string,
  cwd: string,
  pathValue: string | undefined,
): Promise<string | undefined> {
  if (name.includes('/')) {
    const candidate = resolve(cwd, name);
    return (await isExecutableFile(candidate)) ? candidate : undefined;
  }
  for (const dir of (pathValue ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
