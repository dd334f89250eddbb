import { type CheckpointsFailure, failure } from '../errors.js';
import type { CheckpointList, CheckpointSummary, DiffOptions, DiffResult, ListOptions } from '../types.js';
import type { StoreCore } from './core.js';
import { parentOf, readHistory, resolveCheckpoint, unifiedDiff } from './history.js';
import { normalizePaths } from './paths.js';
import { treeDiff } from './restore-plan.js';

/** `list`: the newest checkpoints with who made them and which files they changed. */
export async function listCheckpoints(core: StoreCore, options: ListOptions): Promise<CheckpointList> {
  const limit = Math.min(options.limit ?? core.limits.listDefault, core.limits.listMax);
  // With a branch filter more history is read so the answer still holds up to `limit` entries of that branch.
  const read = options.branch === undefined ? limit : core.limits.listMax * 4;
  const entries = await readHistory(core, read);
  const checkpoints: CheckpointSummary[] = [];
  const exclude = core.exclude;
  for (const entry of entries) {
    if (options.branch !== undefined && entry.meta.branch !== options.branch) continue;
    const { meta } = entry;
    checkpoints.push({
      id: entry.id,
      before: entry.parent,
      time: meta.time,
      kind: meta.kind,
      ...(meta.branch ? { branch: meta.branch } : {}),
      ...(meta.call_id ? { call_id: meta.call_id } : {}),
      ...(meta.tool ? { tool: meta.tool } : {}),
      ...(meta.request ? { request: meta.request } : {}),
      ...(meta.label ? { label: meta.label } : {}),
      ...(meta.restored_to ? { restored_to: meta.restored_to } : {}),
      files_changed: entry.files.length,
      files: (exclude ? entry.files.filter((file) => !exclude(file)) : entry.files).slice(0, core.limits.filesPerEntry),
    });
    if (checkpoints.length >= limit) break;
  }
  return { success: true, checkpoints };
}

function unknown(id: string): CheckpointsFailure {
  return failure(
    'checkpoint_not_found',
    `No checkpoint ${JSON.stringify(id)} in this workspace's store; list the checkpoints and use an id from there.`,
  );
}

/** `diff`: what one checkpoint changed, or everything between two. */
export async function diffCheckpoints(core: StoreCore, options: DiffOptions): Promise<DiffResult | CheckpointsFailure> {
  const paths = normalizePaths(options.paths);
  if (!paths.success) return paths;
  const from = await resolveCheckpoint(core, options.from);
  if (!from) return unknown(options.from);
  let start: string;
  let end: string;
  if (options.to === undefined) {
    start = await parentOf(core, from);
    end = from;
  } else {
    const to = await resolveCheckpoint(core, options.to);
    if (!to) return unknown(options.to);
    start = from;
    end = to;
  }
  // Paths the caller keeps out are left out of the diff: when the range touches one, the diff is asked for the other
  // changed files by name (pathspecs are literal here), so content stored before the caller excluded it never shows.
  const exclude = core.exclude;
  const changed = exclude ? (await treeDiff(core, start, end, paths.paths)).map((entry) => entry.path) : [];
  const shown = exclude ? changed.filter((path) => !exclude(path)) : changed;
  const raw =
    shown.length === changed.length
      ? await unifiedDiff(core, start, end, paths.paths)
      : shown.length === 0
        ? Buffer.alloc(0)
        : await unifiedDiff(core, start, end, shown);
  const max = core.limits.maxDiffBytes;
  const truncated = raw.length > max;
  let text = raw.subarray(0, max).toString('utf8');
  if (truncated) {
    text = `${text.replace(/\uFFFD$/u, '')}\n[… diff cut at ${max} bytes of ${raw.length}; ask for fewer paths to see the rest]\n`;
  }
  return { success: true, from: start, to: end, diff: text, truncated };
}
