import {
  addWalkSkips,
  emptySkipCounts,
  readWorkspaceText,
  skipReasonOf,
  type Workspace,
  type SkipCounts as WorkspaceSkipCounts,
} from '@bough/workspace';

/** A file chosen for searching. */
export interface CandidateFile {
  readonly path: string;
  readonly relative: string;
  /** Size seen by the walk, used only to start big files first; the read checks the real size. */
  readonly size?: number;
}

/** Why files under the search path were left out: the workspace's reasons plus binary and unsearched files. */
export interface SkipCounts extends WorkspaceSkipCounts {
  binary: number;
  not_searched: number;
}

/** A fresh set of zeroed skip counters. */
export function emptySkips(): SkipCounts {
  return { ...emptySkipCounts(), binary: 0, not_searched: 0 };
}

/**
 * Lists the files under `dir` whose extension belongs to the language, honouring .gitignore and never following links.
 * `maxEntries` caps the files of the language (other files do not use it up); the walk still runs to its end so the
 * skip counts cover the whole directory.
 */
export async function listCandidates(
  workspace: Workspace,
  dir: string,
  extensions: ReadonlySet<string>,
  skips: SkipCounts,
  options: { maxEntries: number; signal?: AbortSignal },
): Promise<{ files: CandidateFile[]; truncated: boolean }> {
  const files: CandidateFile[] = [];
  let capped = false;
  const walk = workspace.walk(dir, {
    recursive: true,
    filesOnly: true,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let step = await walk.next();
  while (!step.done) {
    const entry = step.value;
    const name = entry.relative.slice(entry.relative.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
    if (entry.kind === 'file' && extensions.has(ext)) {
      if (files.length < options.maxEntries) {
        files.push({
          path: entry.path,
          relative: entry.relative,
          ...(entry.size === undefined ? {} : { size: entry.size }),
        });
      } else capped = true;
    }
    step = await walk.next();
  }
  const summary = step.value;
  addWalkSkips(skips, summary.skipped);
  return { files, truncated: capped || summary.truncated };
}

type ReadResult =
  | { ok: true; text: string; relative: string }
  | { ok: false; reason: keyof SkipCounts; error?: string };

function skipFor(code: string, error: string): ReadResult {
  return { ok: false, reason: skipReasonOf(code), error };
}

/**
 * Reads one file as UTF-8 text through the workspace gate; returns why not when it cannot be searched (refused,
 * too large, binary, unreadable).
 */
export async function readSource(workspace: Workspace, path: string, maxBytes: number): Promise<ReadResult> {
  const read = await readWorkspaceText(workspace, path, { maxBytes });
  if (!read.ok) return skipFor(read.error_code, read.error);
  if (read.binary) return { ok: false, reason: 'binary' };
  return { ok: true, text: read.text, relative: read.relative };
}
