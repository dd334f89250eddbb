import { lstatSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * The one status check: `git status` against the store's index (which holds the newest checkpoint, and HEAD names
 * it), so git's preloaded stat checks and untracked cache apply and the refreshed index is written back. New folders
 * come back whole (`dir/`) and are expanded here, only when there are some.
 */
async function status(core: StoreCore, only?: readonly string[]): Promise<{ listed: Listed[]; staged: boolean }> {
  const args = [
    'status',
    '--porcelain=v1',
    '-z',
    '--no-renames',
    '--untracked-files=normal',
    '--ignore-submodules=all',
  ];
  if (!core.respectGitignore) args.push('--ignored=traditional');
  if (only) args.push('--', ...only);
  const seen = new Map<string, Listed>();
  const folders: string[] = [];
  let staged = false;
  // A status of named paths only leaves the index file alone: when it lists a change, the staging that follows
  // rewrites the index anyway, and when it lists none, their stat data is cheap to refresh at the next status.
  for (const line of nulList(await gitOut(core, args, { keepIndex: only !== undefined }))) {
    const code = line.slice(0, 2);
    const path = line.slice(3);
    if (path === '') continue;
    if (code === '??' || code === '!!') {
      if (code === '!!' && (await core.exclusions.load()).has(path)) continue;
      if (path.endsWith('/')) folders.push(path);
      else seen.set(path, { path, tracked: false });
      continue;
    }
    if (code[0] !== ' ') staged = true;
    seen.set(path, { path, tracked: true });
  }
  if (folders.length > 0) {
    const expand = ['ls-files', '-z', '--others'];
    if (core.respectGitignore) expand.push('--exclude-standard');
    else expand.push(`--exclude-from=${join(core.layout.gitDir, 'info', 'exclude')}`);
    for (const part of chunks(folders)) {
      for (const path of nulList(await gitOut(core, [...expand, '--', ...part]))) {
        if (!seen.has(path)) seen.set(path, { path, tracked: false });
      }
    }
  }
  return { listed: [...seen.values()], staged };
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
    if (core.exclude?.(entry.path)) {
      keepOut(entry, 'excluded');
      continue;
    }
    const st = lstatSync(join(core.workspace.root, entry.path), { throwIfNoEntry: false });
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
  const forgotten = await core.exclusions.recheck(core.workspace.root, core.limits.maxFileBytes);
  if (forgotten) await core.exclusions.save();
  // What changed since the capture that left the store at `head`, as the watch saw it: nothing (no status check at
  // all), these paths only (a status check of just them), or not known (of everything). A changed exclusion list,
  // an index not yet proven in this process or a capture that died half-way mean everything.
  const scope = await core.watch.take(head, () => ignoredDirs(core));
  const pending = lstatSync(core.layout.pendingFile, { throwIfNoEntry: false });
  const narrowed = !forgotten && core.synced && !pending ? scope : undefined;
  if (narrowed?.length === 0) {
    core.watch.matched(head!);
    return { id: head, created: false, changed: [], skipped: [] };
  }
  const { listed, staged } = await status(core, narrowed);
  // The index holds the newest checkpoint's tree unless a capture died between staging and committing (the pending
  // marker) or this process has not checked yet; then the tree is written and compared even when nothing is listed.
  const trusted = !staged && core.synced && !pending && head !== undefined;
  if (listed.length === 0 && trusted) {
    core.watch.matched(head);
    return { id: head, created: false, changed: [], skipped: [] };
  }
  const { store, drop, skipped } = await sift(core, listed);
  if (skipped.length > 0) await core.exclusions.save();
  // git status compares contents (a file only touched is not listed), so with a trusted index its list is exact.
  const out = await commitPaths(core, meta, head, store, drop, trusted);
  if (out.id !== undefined) core.watch.matched(out.id);
  return { ...out, skipped };
}

/** Folders git never looks into (ignored, or kept out by the store), as `dir/`: the change watch leaves them alone. */
async function ignoredDirs(core: StoreCore): Promise<Set<string>> {
  if (!core.respectGitignore) return new Set();
  const args = ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'];
  return new Set(nulList(await gitOut(core, args)).filter((path) => path.endsWith('/')));
}

/**
 * Stages `store` (added, changed or removed files) and drops `drop` from the index, then writes a checkpoint when the
 * tree differs from the newest one. `exact` says the paths are known to have changed (no diff needed to name them).
 * `knownTree` (a tree-ish) is the tree the staged index is known to hold, and differ from the newest one's: then the
 * commit is written beside the staging instead of after a `write-tree`.
 */
export async function commitPaths(
  core: StoreCore,
  meta: CheckpointMeta,
  head: string | undefined,
  store: readonly string[],
  drop: readonly string[],
  exact: boolean,
  knownTree?: string,
): Promise<Omit<Captured, 'skipped'>> {
  // The pending marker (one empty file, removed once the ref moved) is the one write here that git does not make: a
  // process that dies between staging and moving the ref leaves the index ahead of the newest checkpoint, and another
  // process on the same store, which proved the index earlier, must not trust it (see `capture`). Not fsynced: it
  // guards against a dead process, whose writes the page cache keeps (see `writeHead`).
  writeFileSync(core.layout.pendingFile, '');
  const stage = async () => {
    for (const part of chunks(drop)) await gitOut(core, ['update-index', '--force-remove', '--', ...part]);
    for (const part of chunks(store)) {
      await gitOut(core, ['update-index', '--add', '--remove', '--replace', '--', ...part]);
    }
  };
  const commit = async (tree: string) =>
    (await gitOut(core, ['commit-tree', tree, ...(head ? ['-p', head] : []), '-m', JSON.stringify(meta)]))
      .toString('utf8')
      .trim();
  let id: string;
  let before: string | undefined;
  if (knownTree !== undefined) {
    // Both steps only read the workspace or write objects; the pending marker covers a death between them.
    [, id] = await Promise.all([stage(), commit(knownTree)]);
  } else {
    await stage();
    const tree = (await gitOut(core, ['write-tree'])).toString('utf8').trim();
    before = await treeOf(core, head);
    if (tree === before && head !== undefined) {
      rmSync(core.layout.pendingFile, { force: true });
      core.synced = true;
      return { id: head, created: false, changed: [] };
    }
    id = await commit(tree);
    core.trees.set(id, tree);
  }
  await writeHead(core, id);
  rmSync(core.layout.pendingFile, { force: true });
  core.synced = true;
  const changed = exact
    ? [...store, ...drop].sort(byteOrder)
    : nulList(
        await gitOut(core, [
          'diff-tree',
          '-r',
          '-z',
          '--no-renames',
          '--name-only',
          before ?? (await treeOf(core, head)),
          id,
        ]),
      );
  return { id, created: true, changed };
}

/** git's path order (bytes), so answers list files the same way whichever step named them. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
