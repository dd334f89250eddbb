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

/** Lists files with the given extensions under a directory (gitignore honoured, links never followed). */
export async function listSources(
  workspace: Workspace,
  dir: string,
  extensions: ReadonlySet<string>,
  max: number,
): Promise<{ files: SourceEntry[]; truncated: boolean }> {
  const files: SourceEntry[] = [];
  for await (const entry of workspace.walk(dir, { recursive: true, filesOnly: true })) {
    if (entry.kind !== 'file' || !extensions.has(extensionOf(entry.relative))) continue;
    if (files.length >= max) return { files, truncated: true };
    files.push({ path: entry.path, relative: entry.relative, size: entry.size ?? 0, mtimeMs: entry.mtimeMs ?? 0 });
  }
  return { files, truncated: false };
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
