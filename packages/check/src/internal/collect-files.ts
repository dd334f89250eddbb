import { readWorkspaceText, type Workspace, type WorkspaceFailure } from '@branchkit/workspace';

/** File extensions each checker understands. */
export const PYTHON_EXTENSIONS: ReadonlySet<string> = new Set(['py', 'pyi']);
/** File extensions the TypeScript compiler checks. */
export const TYPESCRIPT_EXTENSIONS: ReadonlySet<string> = new Set(['ts', 'tsx', 'js', 'jsx', 'mts', 'cts']);

/** A file to check, in real absolute and display form. */
export interface CheckFile {
  readonly path: string;
  readonly relative: string;
}

/** Files to check, grouped by checker, plus what was left out. */
export interface CollectedFiles {
  python: CheckFile[];
  typescript: CheckFile[];
  truncated: boolean;
  unsupported: number;
}

function extensionOf(relative: string): string {
  const name = relative.slice(relative.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return '';
  if (name.endsWith('.d.ts') || name.endsWith('.d.mts') || name.endsWith('.d.cts')) return 'ts';
  return name.slice(dot + 1).toLowerCase();
}

/**
 * Expands the requested paths (empty = the root) into files per checker. Directories are walked with .gitignore
 * honoured and links not followed; any refused path fails the whole call with the workspace's own failure.
 */
export async function collectFiles(
  workspace: Workspace,
  paths: readonly string[],
  wanted: { python: boolean; typescript: boolean },
  options: { maxFiles: number; signal?: AbortSignal },
): Promise<CollectedFiles | WorkspaceFailure> {
  const out: CollectedFiles = { python: [], typescript: [], truncated: false, unsupported: 0 };
  const seen = new Set<string>();
  const add = (file: CheckFile, explicit: boolean): void => {
    if (seen.has(file.path)) return;
    const ext = extensionOf(file.relative);
    const bucket =
      wanted.python && PYTHON_EXTENSIONS.has(ext)
        ? out.python
        : wanted.typescript && TYPESCRIPT_EXTENSIONS.has(ext)
          ? out.typescript
          : undefined;
    if (!bucket) {
      if (explicit) out.unsupported++;
      return;
    }
    if (seen.size >= options.maxFiles) {
      out.truncated = true;
      return;
    }
    seen.add(file.path);
    bucket.push(file);
  };
  for (const input of paths.length > 0 ? paths : ['.']) {
    const target = await workspace.resolve(input, 'read');
    if (!target.ok) return target;
    if (target.kind === 'file') {
      add({ path: target.path, relative: target.relative }, true);
      continue;
    }
    const walk = workspace.walk(target.path, {
      recursive: true,
      filesOnly: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    for await (const entry of walk) {
      if (entry.kind === 'file') add({ path: entry.path, relative: entry.relative }, false);
      if (out.truncated) break;
    }
  }
  return out;
}

/** Reads a file as UTF-8 through the workspace gate, or says why it cannot be read. */
export async function readText(
  workspace: Workspace,
  path: string,
  maxBytes: number,
): Promise<{ ok: true; text: string } | WorkspaceFailure> {
  const read = await readWorkspaceText(workspace, path, { maxBytes });
  return read.ok ? { ok: true, text: read.text } : read;
}
