import { readWorkspaceText, type Workspace } from '@branchkit/workspace';

/** Python files handled by the ast-grep grammar. */
export const PYTHON_EXT: ReadonlySet<string> = new Set(['py', 'pyi']);
/** Files handled by the TypeScript language service. */
export const TS_EXT: ReadonlySet<string> = new Set(['ts', 'tsx', 'js', 'jsx', 'mts', 'cts', 'mjs', 'cjs']);

/** Lower-case extension of a path, without the dot. */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** A workspace file seen by a walk. */
export interface SourceEntry {
  readonly path: string;
  readonly relative: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** Files a directory query left out, by reason. */
export interface SkipCounts {
  protected: number;
  ignored: number;
  links: number;
  special: number;
  unreadable: number;
  too_large: number;
}

/** A fresh set of zeroed skip counters. */
export function emptySkips(): SkipCounts {
  return { protected: 0, ignored: 0, links: 0, special: 0, unreadable: 0, too_large: 0 };
}

/**
 * Lists files with the given extensions under a directory (gitignore honoured, links never followed). When `skips` is
 * given, what the walk left out is added to it; the walk then runs to its end even past `max`, so the counts are whole.
 */
export async function listSources(
  workspace: Workspace,
  dir: string,
  extensions: ReadonlySet<string>,
  max: number,
  skips?: SkipCounts,
): Promise<{ files: SourceEntry[]; truncated: boolean }> {
  const files: SourceEntry[] = [];
  let truncated = false;
  const walk = workspace.walk(dir, { recursive: true, filesOnly: true });
  let step = await walk.next();
  for (; !step.done; step = await walk.next()) {
    const entry = step.value;
    if (entry.kind !== 'file' || !extensions.has(extensionOf(entry.relative))) continue;
    if (files.length >= max) {
      truncated = true;
      if (skips) continue;
      await walk.return(undefined as never);
      return { files, truncated };
    }
    files.push({ path: entry.path, relative: entry.relative, size: entry.size ?? 0, mtimeMs: entry.mtimeMs ?? 0 });
  }
  if (skips)
    for (const key of ['protected', 'ignored', 'links', 'special', 'unreadable'] as const)
      skips[key] += step.value.skipped[key];
  return { files, truncated };
}

/** Reads a file as UTF-8 through the workspace gate. */
export async function readSource(
  workspace: Workspace,
  path: string,
  maxBytes: number,
): Promise<{ ok: true; text: string; relative: string } | { ok: false; error: string; error_code: string }> {
  const read = await readWorkspaceText(workspace, path, { maxBytes });
  if (!read.ok) return { ok: false, error: read.error, error_code: read.error_code };
  return { ok: true, text: read.text, relative: read.relative };
}
