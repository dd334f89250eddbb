import { diffSections } from './diff-sections.js';
import {
  blobSizes,
  type ChangedEntry,
  changedEntries,
  type ReplayCommit,
  readBlobs,
  unifiedDiffBytes,
} from './git-history.js';
import { type ApplyPatchRendering, toApplyPatch, utf8Text } from './to-apply-patch.js';

/** A file as git stores it: its bytes and whether it is executable (100755). */
export interface TreeFile {
  readonly bytes: Buffer;
  readonly executable: boolean;
}

/**
 * Known editor gaps a commit runs into, each named after its item of issue 35, derived from the commit's content
 * alone (never from an outcome), so a test can set such commits aside with a stated reason.
 */
export type KnownGap =
  | 'crlf-add (issue 35 item 3: added files keep CRLF)'
  | 'mode-on-move (issue 35 item 3: moves keep mode)'
  | 'mode-lines (issue 35 item 3: mode lines honoured)'
  | 'non-utf8 (issue 35 item 3: Latin-1 files patched byte-exactly)'
  | 'first-occurrence (issue 35 item 4: apply_patch hunks located at the first occurrence)';

/** Everything needed to replay one commit: the parent's files, the commit's files and its diff in both formats. */
export type PreparedCommit =
  | { readonly commit: ReplayCommit; readonly skip: string }
  | {
      readonly commit: ReplayCommit;
      readonly skip?: undefined;
      /** The touched paths as the parent has them (what a replay starts from). */
      readonly before: ReadonlyMap<string, TreeFile>;
      /** The touched paths as the commit has them (a deleted or renamed-away path is absent). */
      readonly after: ReadonlyMap<string, TreeFile>;
      readonly unified: string;
      readonly applyPatch: ApplyPatchRendering;
      /** Known gaps that may make the unified diff fail. */
      readonly unifiedGaps: readonly KnownGap[];
      /** Known gaps that may make the apply_patch rendering fail. */
      readonly applyPatchGaps: readonly KnownGap[];
    };

/** Bounds that keep one replay quick: larger commits are skipped as 'too large'. */
export interface PrepareLimits {
  readonly maxFiles: number;
  readonly maxBlobBytes: number;
  readonly maxDiffBytes: number;
}

/** Default {@link PrepareLimits}: 200 files, 2 MiB per file, 2 MiB of diff. */
export const PREPARE_LIMITS: PrepareLimits = { maxFiles: 200, maxBlobBytes: 2 * 2 ** 20, maxDiffBytes: 2 * 2 ** 20 };

const NO_BLOB = /^0+$/u;

function skipReason(entries: readonly ChangedEntry[]): string | undefined {
  if (entries.length === 0) return 'empty commit';
  for (const e of entries) {
    const modes = [e.oldMode, e.newMode];
    if (modes.includes('160000')) return 'submodule';
    if (modes.includes('120000')) return 'symlink';
    if (!['A', 'M', 'D', 'R'].includes(e.status)) return `status ${e.status}`;
  }
  return undefined;
}

/** Reads a commit's change from `repo` and gets it ready to replay, or says why it is skipped. */
export function prepareCommit(repo: string, commit: ReplayCommit, limits = PREPARE_LIMITS): PreparedCommit {
  const entries = changedEntries(repo, commit.parent, commit.sha);
  const skip = skipReason(entries);
  if (skip) return { commit, skip };
  if (entries.length > limits.maxFiles) return { commit, skip: `too large (${entries.length} files)` };
  const shas = entries.flatMap((e) => [e.oldBlob, e.newBlob]).filter((sha) => !NO_BLOB.test(sha));
  const sizes = blobSizes(repo, shas);
  if ([...sizes.values()].some((size) => size > limits.maxBlobBytes)) return { commit, skip: 'too large (a file)' };
  const diffBytes = unifiedDiffBytes(repo, commit.parent, commit.sha);
  if (diffBytes.length > limits.maxDiffBytes) return { commit, skip: 'too large (the diff)' };
  const unified = utf8Text(diffBytes);
  if (unified === undefined) return { commit, skip: 'diff not UTF-8 (a patch is text)' };
  const sections = diffSections(unified);
  if (sections.some((s) => s.binary)) return { commit, skip: 'binary' };
  const blobs = readBlobs(repo, shas);
  const file = (sha: string, mode: string): TreeFile => ({ bytes: blobs.get(sha)!, executable: mode === '100755' });
  const before = new Map<string, TreeFile>();
  const after = new Map<string, TreeFile>();
  for (const e of entries) if (e.status !== 'A') before.set(e.oldPath, file(e.oldBlob, e.oldMode));
  for (const [path, f] of before) after.set(path, f);
  for (const e of entries) if (e.status === 'D' || e.status === 'R') after.delete(e.oldPath);
  for (const e of entries) if (e.status !== 'D') after.set(e.newPath, file(e.newBlob, e.newMode));

  const gaps = new Set<KnownGap>();
  for (const e of entries) {
    if (e.status === 'A' && blobs.get(e.newBlob)!.includes('\r\n'))
      gaps.add('crlf-add (issue 35 item 3: added files keep CRLF)');
    if (e.status === 'R' && e.oldMode === '100755') gaps.add('mode-on-move (issue 35 item 3: moves keep mode)');
    if (
      (e.status === 'A' && e.newMode !== '100644') ||
      (e.status !== 'A' && e.status !== 'D' && e.oldMode !== e.newMode)
    )
      gaps.add('mode-lines (issue 35 item 3: mode lines honoured)');
    if (e.status !== 'A' && utf8Text(blobs.get(e.oldBlob)!) === undefined)
      gaps.add('non-utf8 (issue 35 item 3: Latin-1 files patched byte-exactly)');
  }
  const applyPatch = toApplyPatch(entries, sections, blobs);
  const unifiedGaps = [...gaps];
  const applyPatchGaps = [...gaps].filter((g) => !g.startsWith('crlf-add') && !g.startsWith('mode-lines'));
  if (applyPatch.ok && applyPatch.ambiguousFirst + applyPatch.ambiguousLater > 0)
    applyPatchGaps.push('first-occurrence (issue 35 item 4: apply_patch hunks located at the first occurrence)');
  return { commit, before, after, unified, applyPatch, unifiedGaps, applyPatchGaps };
}
