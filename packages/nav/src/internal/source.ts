import { readWorkspaceText, type Workspace } from '@bough/workspace';
import type { NavErrorCode } from '../errors.js';

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

/** Reads a file as UTF-8 through the workspace gate. */
export async function readSource(
  workspace: Workspace,
  path: string,
  maxBytes: number,
): Promise<{ ok: true; text: string; relative: string } | { ok: false; error: string; error_code: NavErrorCode }> {
  const read = await readWorkspaceText(workspace, path, { maxBytes });
  if (!read.success) return { ok: false, error: read.error, error_code: read.error_code };
  return { ok: true, text: read.text, relative: read.relative };
}
