import { realpathSync } from 'node:fs';
import { ConfigurationError } from '@bough/core';
import { type ProtectedNamePolicy, Workspace } from '@bough/workspace';
import type { CheckpointsFailure } from './errors.js';
import { capture } from './internal/capture.js';
import { ChangeWatch } from './internal/change-watch.js';
import type { StoreCore } from './internal/core.js';
import { Exclusions, type SkippedPath } from './internal/exclusions.js';
import { diffCheckpoints, listCheckpoints } from './internal/inspect.js';
import { ensureStore, storeLayout } from './internal/layout.js';
import { locked } from './internal/locked.js';
import { requestText } from './internal/meta.js';
import { isInside } from './internal/outside.js';
import { restoreCheckpoint } from './internal/restore.js';
import { type CheckpointsLimits, resolveCheckpointsLimits } from './limits.js';
import { defaultStoreDir } from './store-dir.js';
import type {
  CheckpointList,
  DiffOptions,
  DiffResult,
  ListOptions,
  RestoreOptions,
  RestoreResult,
  SnapshotOptions,
  SnapshotResult,
} from './types.js';

/** How to open the checkpoint store of one workspace. */
export interface CheckpointStoreOptions {
  /** The workspace whose files are checkpointed. */
  readonly root: string;
  /** Where the store lives; default {@link defaultStoreDir} (under the user's state directory, outside the workspace). */
  readonly storeDir?: string;
  /** Overrides of `DEFAULT_CHECKPOINTS_LIMITS`. */
  readonly limits?: Partial<CheckpointsLimits>;
  /** Leave out what the workspace's `.gitignore` files ignore (default true). */
  readonly respectGitignore?: boolean;
  /** Credential names never stored and never restored (default: the `@bough/workspace` policy). */
  readonly protectedNames?: ProtectedNamePolicy;
  /**
   * Workspace-relative paths (forward slashes) the caller's policy keeps out, such as a permission policy's denied
   * paths: never stored, never shown in a diff or a list, never restored. Asked once per path per operation.
   */
  readonly exclude?: (relativePath: string) => boolean;
  /** Variables that locate the default store (`XDG_STATE_HOME`, `HOME`); default none, so `~/.local/state`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A call to checkpoint around: who made it and with which request. */
export interface RecordedCall {
  readonly branch?: string;
  readonly callId?: string;
  readonly tool?: string;
  readonly request?: unknown;
}

/** The checkpoints of one workspace: snapshot, list, diff, restore, and `record` around a call. */
export interface CheckpointStore {
  /** Real path of the workspace. */
  readonly root: string;
  /** The store's directory. */
  readonly storeDir: string;
  snapshot(options?: SnapshotOptions): Promise<SnapshotResult>;
  list(options?: ListOptions): Promise<CheckpointList | CheckpointsFailure>;
  diff(options: DiffOptions): Promise<DiffResult | CheckpointsFailure>;
  restore(options: RestoreOptions): Promise<RestoreResult | CheckpointsFailure>;
  /** Takes a checkpoint before and after `run`, the second attributed to the call; returns what `run` returns. */
  record<T>(call: RecordedCall, run: () => Promise<T>): Promise<T>;
}

/**
 * Opens the checkpoint store of a workspace (created on first use). The store is a git object store outside the
 * workspace driven through `@bough/process`; it never reads or writes the workspace's own repository. Throws a
 * `ConfigurationError` for a bad root or limit, or a store directory inside the workspace; every operation then answers
 * with values, never throws.
 */
export function createCheckpointStore(options: CheckpointStoreOptions): CheckpointStore {
  const limits = resolveCheckpointsLimits(options.limits);
  const workspace = Workspace.openSync(options.root, {
    ...(options.protectedNames ? { protectedNames: options.protectedNames } : {}),
  });
  const dir = options.storeDir ?? defaultStoreDir(workspace.root, options.env);
  if (isInside(workspace.root, dir)) {
    throw new ConfigurationError(
      `The checkpoint store ${dir} would be inside the workspace ${workspace.root}, where its tools and commands could rewrite it; give a storeDir (or a state directory) outside the workspace.`,
    );
  }
  const layout = storeLayout(dir);
  const core: StoreCore = {
    layout,
    git: {
      gitDir: layout.gitDir,
      indexFile: layout.indexFile,
      workTree: workspace.root,
      timeoutMs: limits.gitTimeoutMs,
    },
    workspace,
    limits,
    respectGitignore: options.respectGitignore !== false,
    exclusions: new Exclusions(layout.excludedFile, layout.gitDir),
    ...(options.exclude ? { exclude: options.exclude } : {}),
    trees: new Map(),
    watch: new ChangeWatch(workspace.root, limits.watchMaxDirs),
    synced: false,
  };
  // Checked on every operation (two stats and a small read), so a store deleted meanwhile is simply made again.
  const ensure = () => ensureStore(layout, core.git);
  const run = <T>(work: () => Promise<T | CheckpointsFailure>) => locked(core, ensure, work);

  const snapshot = (opts: SnapshotOptions = {}): Promise<SnapshotResult> =>
    run(async () => {
      const kind = opts.phase ?? (opts.callId ? ('after' as const) : ('snapshot' as const));
      // Changes found before a call were not made by it: the call is named in the label, not as the author.
      const author =
        kind === 'before'
          ? {}
          : {
              ...(opts.callId ? { call_id: opts.callId } : {}),
              ...(opts.tool ? { tool: opts.tool } : {}),
              ...optionalRequest(opts.request, limits.maxRequestChars),
            };
      const label =
        opts.label ?? (kind === 'before' && opts.callId ? `changes found before call ${opts.callId}` : undefined);
      const meta = {
        v: 1 as const,
        kind,
        time: new Date().toISOString(),
        ...(opts.branch ? { branch: opts.branch } : {}),
        ...author,
        ...(label ? { label } : {}),
      };
      const out = await capture(core, meta);
      return {
        success: true as const,
        id: out.id!,
        created: out.created,
        changed_files: out.changed.slice(0, limits.filesPerEntry),
        changed_count: out.changed.length,
        skipped: out.skipped as SkippedPath[],
      };
    });

  return Object.freeze({
    root: workspace.root,
    storeDir: realOrSelf(dir),
    snapshot,
    list: (opts: ListOptions = {}) => run(() => listCheckpoints(core, opts)),
    diff: (opts: DiffOptions) => run(() => diffCheckpoints(core, opts)),
    restore: (opts: RestoreOptions) => run(() => restoreCheckpoint(core, opts)),
    async record<T>(call: RecordedCall, work: () => Promise<T>): Promise<T> {
      await snapshot({ ...call, phase: 'before' });
      try {
        return await work();
      } finally {
        await snapshot({ ...call, phase: 'after' });
      }
    },
  });
}

function optionalRequest(request: unknown, max: number): { request?: string } {
  const text = requestText(request, max);
  return text === undefined ? {} : { request: text };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
