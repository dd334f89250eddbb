import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

// Synchronous on purpose: a PATH walk is a handful of metadata lookups that the kernel answers from its caches in
// microseconds, while each asynchronous lookup costs a thread-pool round trip (which dominated spawning a short
// command on a busy machine). `throwIfNoEntry: false` keeps the common "not in this directory" case free of exceptions.
function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds the file a program name refers to, the way a shell would, so a missing program is a typed failure before
 * spawn. Names with a `/` are paths (relative to `cwd`); other names are looked up on the child's own PATH, where
 * empty and relative entries are skipped so a file planted in the workspace cannot shadow a system program.
 * Nothing is cached: every call sees the file system as it is now.
 */
export async function resolveProgram(
  name: string,
  cwd: string,
  pathValue: string | undefined,
): Promise<string | undefined> {
  if (name.includes('/')) {
    const candidate = resolve(cwd, name);
    return isExecutableFile(candidate) ? candidate : undefined;
  }
  for (const dir of (pathValue ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
