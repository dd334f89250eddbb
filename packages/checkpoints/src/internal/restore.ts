import { readdir, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileChange } from '@bough/workspace';
import { type CheckpointsFailure, failure } from '../errors.js';
import type { RestoreOptions, RestoreResult } from '../types.js';
import { startBlobReader } from './blobs.js';
import { capture, commitPaths } from './capture.js';
import { readHead, type StoreCore, treeOf } from './core.js';
import { readHistory, resolveCheckpoint } from './history.js';
import type { CheckpointMeta } from './meta.js';
import { normalizePaths } from './paths.js';
import { planFromLog, type RestorePlan } from './restore-log.js';
import { ChangedDuringRestore, changesFor, restorable, treeDiff } from './restore-plan.js';

const now = () => new Date().toISOString();

/**
 * `restore`: brings the files of a checkpoint back as one all-or-nothing transaction through the workspace gate.
 * First the current state is checkpointed (so the restore can be undone, and changes nobody recorded are kept in the
 * history); a restore that would overwrite such unrecorded changes is refused as `conflict` unless `force`.
 *
 * The status check of that first checkpoint runs beside the planning against the newest checkpoint (one history
 * listing, one batch read of the blobs); when the status check finds changes, the plan is made again against them.
 */
export async function restoreCheckpoint(
  core: StoreCore,
  options: RestoreOptions,
): Promise<RestoreResult | CheckpointsFailure> {
  const paths = normalizePaths(options.paths);
  if (!paths.success) return paths;
  const to = options.to.toLowerCase();
  const who = {
    ...(options.branch ? { branch: options.branch } : {}),
    ...(options.callId ? { call_id: options.callId } : {}),
  };
  const plan = async (head: string | undefined) => {
    // The blob reader starts beside the planning, so its start-up is not waited for after it.
    const read = startBlobReader(core.git);
    let made: RestorePlan | undefined;
    try {
      made = head === undefined ? undefined : await planRestore(core, to, head, paths.paths, options.branch);
    } catch (error) {
      await read([]).catch(() => undefined);
      throw error;
    }
    const ids = made?.entries.flatMap((entry) => (entry.want ? [entry.want.blob] : [])) ?? [];
    const blobs = await read(ids);
    return made === undefined ? undefined : { ...made, blobs };
  };
  const head = await readHead(core);
  const early = plan(head);
  early.catch(() => undefined); // awaited below; a failure must not go unhandled while the capture runs
  const found = await capture(core, {
    v: 1,
    kind: 'before',
    time: now(),
    ...who,
    tool: 'checkpoints',
    label: 'changes found before a restore',
  });
  const before = found.id!;
  // Changes were found: plan again against their checkpoint (after the first plan settled, so no step outlives the lock).
  const planned = before === head ? await early : await early.catch(() => undefined).then(() => plan(before));
  if (!planned) {
    return failure(
      'checkpoint_not_found',
      `No checkpoint ${JSON.stringify(options.to)} in this workspace's store; list the checkpoints and use an id from there.`,
    );
  }
  const { target } = planned;
  const { keep, skipped } = await restorable(core, planned.entries);
  const clashes = keep.filter((entry) => planned.foreign.has(entry.path)).map((entry) => entry.path);
  if (clashes.length > 0 && options.force !== true) {
    const shown = clashes.slice(0, core.limits.filesPerEntry);
    return failure(
      'conflict',
      `${clashes.length} file(s) were changed after the last checkpoint by something other than a recorded call ` +
        `(${shown.join(', ')}${clashes.length > shown.length ? ', …' : ''}); the restore would overwrite them, so ` +
        `nothing was changed. Their current state is saved as checkpoint ${before}. Restore fewer paths, or repeat ` +
        'with force: true to overwrite them.',
      { conflicts: shown, conflict_count: clashes.length, before },
    );
  }
  let changes: FileChange[];
  try {
    changes = await changesFor(core, keep, planned.blobs);
  } catch (error) {
    if (!(error instanceof ChangedDuringRestore)) throw error;
    return changedWhileRunning(error.path, before);
  }
  if (changes.length > 0) {
    const applied = await core.workspace.applyChanges(changes);
    if (!applied.success) {
      if (applied.error_code === 'changed_during_check' || applied.error_code === 'already_exists') {
        return changedWhileRunning(applied.failed_path, before);
      }
      return failure(
        'restore_failed',
        `The workspace refused the restore at ${JSON.stringify(applied.failed_path)} (${applied.error_code}: ` +
          `${applied.error}); nothing was changed.`,
        { failed_path: applied.failed_path, workspace_error_code: applied.error_code },
      );
    }
    await removeEmptiedDirs(
      core.workspace.root,
      changes.filter((c) => c.kind === 'delete').map((c) => c.path),
    );
  }
  const meta: CheckpointMeta = {
    v: 1,
    kind: 'restore',
    time: now(),
    ...who,
    tool: 'checkpoints',
    restored_to: target,
    ...(paths.paths.length > 0 ? { label: `restore of ${paths.paths.join(', ')}`.slice(0, 200) } : {}),
  };
  // The restored paths are staged directly: they are exactly what changed, so no second status check is needed.
  // Anything someone else changes meanwhile is found by the next snapshot, as a change no call made. A restore of
  // everything with nothing left out leaves exactly the checkpoint's tree, so its commit needs no tree written.
  const whole = paths.paths.length === 0 && keep.length === planned.entries.length;
  const done =
    changes.length === 0
      ? { id: before, changed: [] as string[] }
      : await commitPaths(
          core,
          meta,
          before,
          changes.map((c) => c.path),
          [],
          true,
          whole ? `${target}^{tree}` : undefined,
        );
  return {
    success: true,
    id: done.id!,
    before,
    restored_to: target,
    changed_files: done.changed.slice(0, core.limits.filesPerEntry),
    changed_count: done.changed.length,
    skipped: [...skipped],
    overwritten: clashes,
  };
}

/** The plan against `head`: from one history listing when it can answer, else step by step; undefined: no such id. */
async function planRestore(
  core: StoreCore,
  to: string,
  head: string,
  paths: readonly string[],
  branch: string | undefined,
): Promise<RestorePlan | undefined> {
  const quick = await planFromLog(core, to, head, paths, branch);
  if (quick) return quick;
  const target = await resolveCheckpoint(core, to);
  if (!target) return undefined;
  const [foreign, entries] = await Promise.all([
    foreignChanges(core, target, head, branch),
    (async () => treeDiff(core, await treeOf(core, head), await treeOf(core, target), paths))(),
  ]);
  return { target, head, entries, foreign };
}

function changedWhileRunning(path: string, before: string): CheckpointsFailure {
  return failure(
    'conflict',
    `${JSON.stringify(path)} changed while the restore ran, so nothing was changed; try again.`,
    {
      conflicts: [path],
      conflict_count: 1,
      before,
    },
  );
}

/**
 * Paths changed after `target` by someone other than a recorded call (checkpoints found before a call or a restore,
 * plain snapshots) and, for a restore made by a branch, by the calls of other branches.
 */
async function foreignChanges(core: StoreCore, target: string, now: string, branch: string | undefined) {
  const paths = new Set<string>();
  if (target === now) return paths;
  for (const entry of await readHistory(core, Number.MAX_SAFE_INTEGER, `${target}..${now}`)) {
    const { kind, branch: owner } = entry.meta;
    const foreign =
      kind === 'before' || kind === 'snapshot' || (branch !== undefined && owner !== undefined && owner !== branch);
    if (foreign) for (const file of entry.files) paths.add(file);
  }
  return paths;
}

/** Folders left empty by deleting the files created after the checkpoint go too (git keeps no empty folders). */
async function removeEmptiedDirs(root: string, deleted: readonly string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const path of deleted) {
    for (let dir = dirname(path); dir !== '.' && dir !== '/' && dir !== ''; dir = dirname(dir)) dirs.add(dir);
  }
  // Deepest first; rmdir removes only an empty directory and never follows a link.
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
    const abs = join(root, dir);
    const entries = await readdir(abs).catch(() => undefined);
    if (entries && entries.length === 0) await rmdir(abs).catch(() => undefined);
  }
}
