import type { Workspace } from '@branchkit/workspace';

/** One line ripgrep reported, kept raw until it is confirmed against the file the workspace gate opens. */
export interface PendingMatch {
  /** Workspace-relative posix path. */
  readonly path: string;
  readonly line: number;
  /** The line text as ripgrep printed it (possibly cut with ripgrep's own marker). */
  readonly text: string;
}

// ripgrep's own markers for a line cut by --max-columns-preview.
export const RG_CUT_MARKER = / \[\.\.\. (?:omitted end of long line|\d+ more match(?:es)?)\]$/;

function decodeLike(bytes: Buffer): string {
  // ripgrep transcodes files with a UTF-16 byte-order mark and drops a UTF-8 one; do the same before comparing.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

async function linesOf(workspace: Workspace, path: string, maxBytes: number): Promise<string[] | undefined> {
  const opened = await workspace.openRead(path, { maxBytes });
  if (!opened.ok) return undefined;
  try {
    return decodeLike(await opened.handle.readFile()).split('\n');
  } catch {
    return undefined;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

/**
 * Keeps only the matches whose text is really on that line of the file the workspace gate opens now. ripgrep opens
 * files by path while it walks, so a directory or file swapped for a link during the walk could have shown it text
 * from outside; re-reading through the gate (no links, containment, protected names) means such text never reaches
 * a result — at worst a genuine match is dropped and counted.
 */
export async function confirmMatches(
  workspace: Workspace,
  matches: readonly PendingMatch[],
  maxBytes: number,
  budget: ConfirmBudget = {},
): Promise<{ kept: PendingMatch[]; dropped: number; unchecked: number }> {
  const files = new Map<string, Promise<string[] | undefined>>();
  const kept: PendingMatch[] = [];
  let dropped = 0;
  for (const [index, match] of matches.entries()) {
    // Unchecked text is never shown: when time runs out the rest is left out (and counted) instead of waited for.
    if (outOfTime(budget)) return { kept, dropped, unchecked: matches.length - index };
    let lines = files.get(match.path);
    if (!lines) {
      lines = linesOf(workspace, match.path, maxBytes);
      files.set(match.path, lines);
    }
    const actual = (await lines)?.[match.line - 1]?.replace(/\r$/, '');
    const shown = match.text.replace(RG_CUT_MARKER, '').replace(/\uFFFD+$/, '');
    if (actual?.startsWith(shown)) kept.push(match);
    else dropped++;
  }
  return { kept, dropped, unchecked: 0 };
}

/** When confirming must stop: the search's own deadline (epoch ms) and the call's abort signal. */
export interface ConfirmBudget {
  readonly deadline?: number;
  readonly signal?: AbortSignal;
}

/** Checking may use what is left of the search budget, and at least `confirmMs` once ripgrep has ended. */
export function confirmDeadline(started: number, limits: { timeoutMs: number; confirmMs: number }): number {
  return Math.max(started + limits.timeoutMs, Date.now() + limits.confirmMs);
}

function outOfTime(budget: ConfirmBudget): boolean {
  return (budget.signal?.aborted ?? false) || (budget.deadline !== undefined && Date.now() >= budget.deadline);
}

/** Keeps only the listed paths that the workspace gate still accepts as regular files inside the workspace. */
export async function confirmPaths(
  workspace: Workspace,
  paths: readonly string[],
  budget: ConfirmBudget = {},
): Promise<{ kept: string[]; dropped: number; unchecked: number }> {
  const kept: string[] = [];
  let dropped = 0;
  for (const [index, path] of paths.entries()) {
    if (outOfTime(budget)) return { kept, dropped, unchecked: paths.length - index };
    const where = await workspace.resolve(path, 'read');
    if (where.ok && where.kind === 'file') kept.push(path);
    else dropped++;
  }
  return { kept, dropped, unchecked: 0 };
}
