import { constants, lstatSync } from 'node:fs';
import { open } from 'node:fs/promises';
import ignore, { type Ignore } from 'ignore';
import { descriptorMoved } from './fd-path.js';
import { childPath } from './paths.js';

/** The rules of one `.gitignore`, anchored at the directory that holds it (posix relative to the root, '' for root). */
export interface IgnoreLevel {
  readonly base: string;
  readonly rules: Ignore;
}

/** Reads `<dir>/.gitignore` without following links; unreadable, oversized or special files are treated as absent. */
export async function loadIgnoreLevel(
  realDir: string,
  base: string,
  maxBytes: number,
): Promise<IgnoreLevel | undefined> {
  const file = childPath(realDir, '.gitignore');
  // Most directories have no .gitignore. A synchronous lstat that reports absence without throwing settles that in
  // microseconds; an open that fails costs a thread-pool round trip plus an Error with a captured stack, for every
  // ancestor of every listing. A link or special file is absent too; the open below still re-checks what it gets.
  let seen: ReturnType<typeof lstatSync>;
  try {
    seen = lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (seen === undefined || !seen.isFile()) return undefined;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.size > maxBytes || (await descriptorMoved(handle.fd, file)) !== undefined) return undefined;
    const text = await handle.readFile({ encoding: 'utf8' });
    return { base, rules: ignore({ ignorecase: false }).add(text) };
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Git's layering: deeper files override shallower ones, and a later negation can re-include a path. */
export function isIgnored(levels: readonly IgnoreLevel[], rel: string, directory: boolean): boolean {
  let ignored = false;
  for (const level of levels) {
    const local = level.base === '' ? rel : rel.startsWith(`${level.base}/`) ? rel.slice(level.base.length + 1) : '';
    if (local === '') continue;
    try {
      const result = level.rules.test(directory ? `${local}/` : local);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    } catch {
      // a name the ignore library cannot parse is simply not matched by any rule
    }
  }
  return ignored;
}
