import { lstat, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gitOut, readHead, type StoreCore, treeOf, writeHead } from './core.js';
import type { SkippedPath } from './exclusions.js';
import { nulList } from './git.js';
import type { CheckpointMeta } from './meta.js';

/** What one capture found: the newest checkpoint afterwards, and what changed since the one before. */
export interface Captured {
  /** The newest checkpoint after the capture (the previous one when nothing changed); undefined in an empty store. */
  readonly id: string | undefined;
  /** Whether a new checkpoint was written. */
  readonly created: boolean;
  /** Paths that differ from the previous checkpoint (sorted). */
  readonly changed: readonly string[];
  readonly skipped: readonly SkippedPath[];
}

interface Listed {
  readonly path: string;
  readonly tracked: boolean;
}

/** The one status check: files that differ from the store's index (new, modified, removed), ignore rules applied. */
async function status(core: StoreCore): Promise<Listed[]> {
  const args = ['ls-files', '-z', '-t', '--others', '--modified', '--deleted'];
  if (core.respectGitignore) args.push('--exclude-standard');
  else args.push(`--exclude-from=${join(core.layout.gitDir, 'info', 'exclude')}`);
  const seen = new Map<string, Listed>();
  for (const line of nulList(await gitOut(core, args))) {
    const path = line.slice(2);
    if (path === '' || seen.has(path)) continue;
    seen.set(path, { path, tracked: !line.startsWith('?') });
  }
  return [...seen.values()];
}

/** Chunks of paths that keep one argv well under the system's limit. */
function* chunks(paths: readonly string[], budget = 100_000): Generator<string[]> {
  let chunk: string[] = [];
  let size = 0;
  for (const path of paths) {
    if (chunk.length > 0 && size + path.length + 1 > budget) {
      yield chunk;
      chunk = [];
      size = 0;
    }
    chunk.push(path);
    size += path.length + 1;
  }
  if (chunk.length > 0) yield chunk;
}

/** Sorts listed paths into those to store and those kept out (with the reason), remembering the latter. */
async function sift(core: StoreCore, listed: readonly Listed[]) {
  const excluded = await core.exclusions.load();
  const store: string[] = [];
  const drop: string[] = [];
  const skipped: SkippedPath[] = [];
  const keepOut = (entry: Listed, reason: SkippedPath['reason']) => {
    const path = entry.path.replace(/\/$/u, '');
    excluded.set(entry.path, reason);
    skipped.push({ path, reason });
    if (entry.tracked) drop.push(path);
  };
  for (const entry of listed) {
    if (entry.path.endsWith('/')) {
      keepOut(entry, 'nested_repository');
      continue;
    }
    if (core.workspace.isProtected(entry.path)) {
      keepOut(entry, 'protected');
      continue;
    }
    const st = await lstat(join(core.workspace.root, entry.path)).catch(() => undefined);
    if (st === undefined) {
      if (entry.tracked) store.push(entry.path); // removed since the last checkpoint
      continue;
    }
    if (st.isSymbolicLink()) keepOut(entry, 'symlink');
    else if (!st.isFile()) keepOut(entry, 'special_file');
    else if (st.size > core.limits.maxFileBytes) keepOut(entry, 'too_large');
    else store.push(entry.path);
  }
  return { store, drop, skipped };
}

/**
 * Brings the store up to date with the workspace and writes a checkpoint when anything changed. Cheap when nothing
 * did: one status check against the persistent index (whose stat data and untracked cache git keeps), no hashing,
 * no new objects. Runs under the store lock.
 */
export async function capture(core: StoreCore, meta: CheckpointMeta): Promise<Captured> {
  const head = await readHead(core);
  if (await core.exclusions.recheck(core.workspace.root, core.limits.maxFileBytes)) await core.exclusions.save();
  const listed = await status(core);
  const pending = await lstat(core.layout.pendingFile).catch(() => undefined);
  // The index holds the newest checkpoint's tree unless a capture died between staging and committing (the pending
  // marker) or this process has not checked yet; then the tree is written and compared even when nothing is listed.
  if (listed.length === 0 && core.synced && !pending && head !== undefined) {
    return { id: head, created: false, changed: [], skipped: [] };
  }
  const { store, drop, skipped } = await sift(core, listed);
  if (skipped.length > 0) await core.exclusions.save();
  await writeFile(core.layout.pendingFile, '');
  for (const part of chunks(drop)) await gitOut(core, ['update-index', '--force-remove', '--', ...part]);
  for (const part of chunks(store))
    await gitOut(core, ['update-index', '--add', '--remove', '--replace', '--', ...part]);
  const tree = (await gitOut(core, ['write-tree'])).toString('utf8').trim();
  const before = await treeOf(core, head);
  if (tree === before && head !== undefined) {
    await rm(core.layout.pendingFile, { force: true });
    core.synced = true;
    return { id: head, created: false, changed: [], skipped };
  }
  const message = JSON.stringify(meta);
  const id = (await gitOut(core, ['commit-tree', tree, ...(head ? ['-p', head] : []), '-m', message]))
    .toString('utf8')
    .trim();
  await writeHead(core, id);
  core.trees.set(id, tree);
  await rm(core.layout.pendingFile, { force: true });
  core.synced = true;
  const changed = nulList(await gitOut(core, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', before, tree]));
  return { id, created: true, changed, skipped };
}
