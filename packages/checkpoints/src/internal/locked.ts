import { errorMessage } from '@bough/core';
import { type CheckpointsFailure, failure } from '../errors.js';
import { type StoreCore, StoreFault } from './core.js';
import { withStoreLock } from './lock.js';

/**
 * Runs one store operation under the store lock, creating the store first; git failures and file-system errors become
 * typed values here, so no operation ever throws at a caller.
 */
export async function locked<T>(
  core: StoreCore,
  ensure: () => Promise<{ ok: true } | { ok: false; message: string }>,
  work: () => Promise<T | CheckpointsFailure>,
): Promise<T | CheckpointsFailure> {
  try {
    const made = await ensure();
    if (!made.ok) return setupFailure(made.message);
    return await withStoreLock(core.layout.dir, core.layout.lockDir, core.limits.lockWaitMs, work, () =>
      failure(
        'store_busy',
        `Another process kept the checkpoint store busy for ${core.limits.lockWaitMs} ms; try again in a moment.`,
      ),
    );
  } catch (error) {
    const why = error instanceof StoreFault ? error.message : errorMessage(error);
    return failure('store_error', `The checkpoint store failed: ${why}.`);
  }
}

function setupFailure(message: string): CheckpointsFailure {
  if (/command_not_found|ENOENT/u.test(message)) {
    return failure(
      'git_unavailable',
      'git is not installed or not on PATH, so checkpoints cannot be kept. Ask the user to install git.',
    );
  }
  return failure('store_error', `The checkpoint store cannot be used: ${message}`);
}
