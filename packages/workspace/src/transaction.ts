import { randomBytes } from 'node:crypto';
import { constants, linkSync, renameSync, type Stats, unlinkSync } from 'node:fs';
import { open, rename, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoCode, quotePath, type WorkspaceErrorCode, type WorkspaceFailure, workspaceFailure } from './errors.js';
import { applyIntent } from './internal/intent.js';
import { lockPaths } from './internal/path-locks.js';
import { type PinnedDir, pinDir } from './internal/pinned-dir.js';
import { quietly } from './internal/quietly.js';
import { type ResolverContext, resolveDetail } from './internal/resolver.js';
import { mkdirChain } from './internal/safe-mkdir.js';
import { existsSync, SYNC_FILE_BYTES, sameFileSync, writeNewSync } from './internal/small-file-steps.js';
import { Turns } from './turns.js';

/**
 * One file change of a transaction; `expected` is the content the caller validated against. `mode` sets the
 * permission bits of the new content exactly (setuid and setgid dropped): a new file otherwise gets 0o666 minus the
 * umask, a replaced one keeps the mode it has.
 */
export type FileChange =
  | { readonly kind: 'create'; readonly path: string; readonly data: Uint8Array; readonly mode?: number }
  | {
      readonly kind: 'replace';
      readonly path: string;
      readonly data: Uint8Array;
      readonly expected: Uint8Array;
      readonly mode?: number;
    }
  | { readonly kind: 'delete'; readonly path: string; readonly expected: Uint8Array };

/** The steps a transaction takes for each change, in this order (`commit` runs for every change only after all else). */
export type ChangeStep = 'check' | 'stage' | 'verify' | 'commit';

/** A refused or failed transaction: nothing was changed (or everything was put back), and where it stopped. */
export type TransactionFailure = WorkspaceFailure & {
  readonly failed_path: string;
  readonly failed_step: ChangeStep;
  /** True when some changes had been made and were undone. */
  readonly rolled_back: boolean;
};

/** Test seam: a test sets `beforeStep` to throw at an exact step; production code never sets it. */
export const transactionFaults: { beforeStep?: (step: ChangeStep, index: number, path: string) => void } = {};

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

interface Entry {
  change: FileChange;
  real: string;
  relative: string;
  stat: Stats | undefined;
  dir?: PinnedDir;
  name: string;
  temp?: string;
  backup?: string;
  committed: boolean;
}

class StepError extends Error {
  constructor(
    readonly code: WorkspaceErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A refusal from the gate during a step, carried to the one place that rolls back. */
class Refused extends Error {
  constructor(readonly failure: WorkspaceFailure) {
    super(failure.error);
  }
}

const tempName = (suffix: string) => `.bk-${randomBytes(6).toString('hex')}.${suffix}`;

async function writeTemp(entry: Entry, data: Uint8Array, durable: boolean): Promise<void> {
  const dir = entry.dir!;
  const name = tempName('tmp');
  const change = entry.change as Exclude<FileChange, { kind: 'delete' }>;
  const mode = change.mode ?? entry.stat?.mode;
  if (!durable && data.byteLength <= SYNC_FILE_BYTES) {
    writeNewSync(join(dir.prefix, name), CREATE_FLAGS, data, mode, () => {
      entry.temp = name;
    });
    return;
  }
  const handle = await open(join(dir.prefix, name), CREATE_FLAGS, mode === undefined ? 0o666 : 0o600);
  entry.temp = name;
  try {
    if (mode !== undefined) await handle.chmod(mode & 0o1777);
    let offset = 0;
    while (offset < data.byteLength) {
      const { bytesWritten } = await handle.write(data, offset, data.byteLength - offset, offset);
      offset += bytesWritten;
    }
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
}

async function verify(entry: Entry): Promise<void> {
  const target = join(entry.dir!.prefix, entry.name);
  if (entry.change.kind === 'create') {
    if (existsSync(target)) {
      throw new StepError('already_exists', `${quotePath(entry.relative)} appeared after the patch was checked.`);
    }
    return;
  }
  const changed = () =>
    new StepError(
      'changed_during_check',
      `${quotePath(entry.relative)} changed after the patch was checked against it; read it again and redo the patch.`,
    );
  if (entry.change.expected.byteLength <= SYNC_FILE_BYTES) {
    if (!sameFileSync(target, entry.stat!, entry.change.expected)) throw changed();
    return;
  }
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw changed();
  }
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.dev !== entry.stat!.dev || st.ino !== entry.stat!.ino) throw changed();
    const now = await handle.readFile();
    if (!Buffer.from(now).equals(Buffer.from(entry.change.expected))) throw changed();
  } finally {
    await handle.close();
  }
}

/** Puts one change in place: link, rename and unlink only touch directory entries, so they are made synchronously. */
function commit(entry: Entry): void {
  const dir = entry.dir!.prefix;
  const target = join(dir, entry.name);
  if (entry.change.kind === 'create') {
    linkSync(join(dir, entry.temp!), target); // EEXIST if anything appeared: never overwrites
    entry.committed = true;
    unlinkSync(join(dir, entry.temp!));
    entry.temp = undefined;
    return;
  }
  entry.backup = tempName('orig');
  if (entry.change.kind === 'delete') {
    renameSync(target, join(dir, entry.backup));
    entry.committed = true;
    return;
  }
  linkSync(target, join(dir, entry.backup));
  renameSync(join(dir, entry.temp!), target);
  entry.temp = undefined;
  entry.committed = true;
}

async function undo(entry: Entry): Promise<void> {
  const dir = entry.dir!.prefix;
  const target = join(dir, entry.name);
  if (entry.change.kind === 'create') await unlink(target);
  else await rename(join(dir, entry.backup!), target);
  entry.backup = undefined;
  entry.committed = false;
}

/**
 * Applies several file changes all or nothing. Every path passes the gate with write intent (no links, no protected
 * names, nothing in `.git`); each new content is staged in a temp file beside its target (fsynced in a durable workspace); just before
 * committing, every existing target must still hold exactly the bytes the caller validated (and new targets must
 * still be missing); then the changes are committed in order (replaced and deleted files kept under a hidden backup
 * name, new files linked in so nothing is overwritten). From that last check to the end of the commit, the lock of
 * every target path is held (taken in one sorted order), so no other writer of those paths in this process can slip
 * in between (see {@link lockPaths}). If any step fails, every committed change is undone, temp
 * files and created directories are removed, and the failure names the file and the step.
 */
export async function applyChangesIn(
  ctx: ResolverContext,
  changes: readonly FileChange[],
): Promise<{ success: true; relative: string[] } | TransactionFailure> {
  const entries: Entry[] = [];
  const createdDirs: string[] = [];
  let release: (() => void) | undefined;
  let step: ChangeStep = 'check';
  let current = changes[0]?.path ?? '';
  const fail = (code: WorkspaceErrorCode, message: string, rolled: boolean): TransactionFailure => ({
    ...workspaceFailure(code, message),
    failed_path: current,
    failed_step: step,
    rolled_back: rolled,
  });
  try {
    for (const [index, change] of changes.entries()) {
      current = change.path;
      transactionFaults.beforeStep?.('check', index, change.path);
      const resolved = await resolveDetail(ctx, change.path, 'write');
      if (!resolved.success) throw new Refused(resolved);
      const detail = applyIntent(resolved, change.path, 'write');
      if (!detail.success) throw new Refused(detail);
      if (change.kind === 'create' && detail.exists) {
        throw new StepError('already_exists', `${quotePath(change.path)} already exists; a patch only adds new files.`);
      }
      if (change.kind !== 'create' && detail.kind !== 'file') {
        throw new StepError('not_found', `${quotePath(change.path)} is not an existing regular file.`);
      }
      if (entries.some((e) => e.real === detail.path)) {
        throw new StepError('invalid_path', `${quotePath(change.path)} is changed twice in one patch.`);
      }
      entries.push({
        change,
        real: detail.path,
        relative: detail.relative,
        stat: detail.stat,
        name: basename(detail.path),
        committed: false,
      });
      if (change.kind === 'create' && detail.missing.length > 1) {
        const parents = detail.missing.slice(0, -1);
        step = 'stage';
        const made = await mkdirChain(detail.base, parents, change.path);
        if (!made.success)
          return { ...made, failed_path: current, failed_step: 'stage', rolled_back: createdDirs.length > 0 };
        for (let i = 1; i <= parents.length; i++) createdDirs.push(join(detail.base, ...parents.slice(0, i)));
        step = 'check';
      }
    }
    step = 'stage';
    const turns = new Turns();
    for (const [index, entry] of entries.entries()) {
      await turns.pace();
      current = entry.change.path;
      transactionFaults.beforeStep?.('stage', index, current);
      const dir = await pinDir(dirname(entry.real));
      if (!dir) throw new StepError('changed_during_check', `A directory on the way to ${quotePath(current)} changed.`);
      entry.dir = dir;
      if (entry.change.kind !== 'delete') await writeTemp(entry, entry.change.data, ctx.durable === true);
    }
    step = 'verify';
    // Every target's lock, held from the check of its bytes to the end of the commit (or of the rollback).
    release = await lockPaths(entries.map((e) => e.real));
    for (const [index, entry] of entries.entries()) {
      await turns.pace();
      current = entry.change.path;
      transactionFaults.beforeStep?.('verify', index, current);
      await verify(entry);
    }
    step = 'commit';
    for (const [index, entry] of entries.entries()) {
      current = entry.change.path;
      transactionFaults.beforeStep?.('commit', index, current);
      commit(entry);
      await turns.pace();
    }
  } catch (error) {
    const rolled = await rollback(entries, createdDirs);
    release?.();
    if (error instanceof Refused)
      return { ...error.failure, failed_path: current, failed_step: step, rolled_back: rolled };
    if (step === 'check' && error instanceof StepError) return fail(error.code, error.message, rolled);
    const code =
      error instanceof StepError ? error.code : errnoCode(error) === 'EEXIST' ? 'already_exists' : 'io_error';
    const why =
      error instanceof StepError ? error.message : `${errnoCode(error) ?? (error as Error).message ?? 'error'}`;
    return fail(
      code,
      `The patch stopped at the ${step} step of ${quotePath(current)} (${why}); ${rolled ? 'every file already changed was restored, so' : ''} nothing was changed.`,
      rolled,
    );
  }
  release?.();
  await cleanup(entries);
  return { success: true, relative: entries.map((e) => e.relative) };
}

async function rollback(entries: Entry[], createdDirs: string[]): Promise<boolean> {
  let any = false;
  for (const entry of [...entries].reverse()) {
    if (entry.committed) {
      any = true;
      await undo(entry).catch(() => undefined);
    }
  }
  await cleanup(entries);
  for (const dir of [...createdDirs].reverse()) await rmdir(dir).catch(() => undefined);
  return any || createdDirs.length > 0;
}

async function cleanup(entries: Entry[]): Promise<void> {
  for (const entry of entries) {
    if (!entry.dir) continue;
    // Removing a name is a directory-entry change: synchronous, like the commit (a missing one is already gone).
    if (entry.temp) quietly(() => unlinkSync(join(entry.dir!.prefix, entry.temp!)));
    if (entry.backup) quietly(() => unlinkSync(join(entry.dir!.prefix, entry.backup!)));
    entry.temp = undefined;
    entry.backup = undefined;
    await entry.dir.close();
    entry.dir = undefined;
  }
}
