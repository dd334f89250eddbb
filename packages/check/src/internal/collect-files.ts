import { type Workspace, WorkspaceError, type WorkspaceFailure } from '@bough/workspace';
import { addWalkSkips, emptySkipCounts, extensionOf, type SkipCounts } from '@bough/workspace/internal';

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
  /** Files for a language server (Go, C/C++, …), collected only when a client is given. */
  lsp: CheckFile[];
  truncated: boolean;
  unsupported: number;
  skipped: SkipCounts;
}

/** The shared extension rule, except that every declaration file (`.d.ts`, `.d.mts`, `.d.cts`) counts as `ts`. */
function checkedExtension(relative: string): string {
  return /\.d\.[mc]?ts$/.test(relative) ? 'ts' : extensionOf(relative);
}

/**
 * Expands the requested paths (empty = the root) into files per checker. Directories are walked with .gitignore
 * honoured and links not followed; any refused path fails the whole call with the workspace's own failure.
 */
export async function collectFiles(
  workspace: Workspace,
  paths: readonly string[],
  wanted: { python: boolean; typescript: boolean; lsp?: (relative: string) => boolean },
  options: { maxFiles: number; signal?: AbortSignal },
): Promise<CollectedFiles | WorkspaceFailure> {
  const out: CollectedFiles = {
    python: [],
    typescript: [],
    lsp: [],
    truncated: false,
    unsupported: 0,
    skipped: emptySkipCounts(),
  };
  const seen = new Set<string>();
  const add = (file: CheckFile, explicit: boolean): void => {
    if (seen.has(file.path)) return;
    const ext = checkedExtension(file.relative);
    const bucket =
      wanted.python && PYTHON_EXTENSIONS.has(ext)
        ? out.python
        : wanted.typescript && TYPESCRIPT_EXTENSIONS.has(ext)
          ? out.typescript
          : !PYTHON_EXTENSIONS.has(ext) && !TYPESCRIPT_EXTENSIONS.has(ext) && wanted.lsp?.(file.relative)
            ? out.lsp
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
  // An empty string is the workspace root, like an empty list.
  for (const input of paths.length > 0 ? paths.map((p) => (p === '' ? '.' : p)) : ['.']) {
    const target = await workspace.resolve(input, 'read');
    if (!target.success) return target;
    if (target.kind === 'file') {
      add({ path: target.path, relative: target.relative }, true);
      continue;
    }
    try {
      const walk = workspace.walk(target.path, {
        recursive: true,
        filesOnly: true,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      let step = await walk.next();
      while (!step.done && !out.truncated) {
        if (step.value.kind === 'file') add({ path: step.value.path, relative: step.value.relative }, false);
        step = await walk.next();
      }
      if (step.done) {
        addWalkSkips(out.skipped, step.value.skipped);
      } else await walk.return(undefined as never);
    } catch (error) {
      // The directory was swapped or refused between the check and the listing: report the gate's own failure.
      if (error instanceof WorkspaceError) return error.failure;
      throw error;
    }
  }
  return out;
}
