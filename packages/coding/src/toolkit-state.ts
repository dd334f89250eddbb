import type { BranchView } from '@bough/core';
import { Workspace, type WorkspaceOptions } from '@bough/workspace';
import type { WorktreeSession } from '@bough/worktree';
import type { DiagnosticsWatcher } from './diagnostics-introduced.js';
import type { GuardLimits } from './edit-guard.js';
import { FileState } from './file-state.js';
import { DEFAULT_CODING_LIMITS } from './limits.js';
import type { NudgeEngine } from './nudge-engine.js';

/** The one sandbox a build may have; `session` is set exactly while a worktree or its branch still exists. */
export interface SandboxSlot {
  session: WorktreeSession | undefined;
}

/**
 * Everything mutable that one toolkit build owns. A build for another branch (or a clone) gets a new one, so no
 * file state, sandbox, nudge history or cached tool is ever shared between builds.
 */
export class ToolkitState {
  readonly branch: BranchView;
  readonly workspaceRoot: string;
  readonly files: FileState;
  readonly sandbox: SandboxSlot = { session: undefined };
  nudges: NudgeEngine | undefined;
  /** The read-before-edit guard's size limits. */
  guardLimits: GuardLimits = DEFAULT_CODING_LIMITS;
  /** Reports the diagnostics each change introduced; absent when that is turned off. */
  diagnostics: DiagnosticsWatcher | undefined;
  readonly #workspaces = new Map<string, Promise<Workspace>>();
  readonly #keys = new WeakMap<object, number>();
  #nextKey = 1;
  readonly detach: () => void;

  constructor(
    branch: BranchView,
    workspaceRoot: string,
    windowsPerFile: number = DEFAULT_CODING_LIMITS.guardWindowsPerFile,
    trackedFiles: number = DEFAULT_CODING_LIMITS.guardTrackedFiles,
  ) {
    this.branch = branch;
    this.workspaceRoot = workspaceRoot;
    this.files = new FileState(windowsPerFile, trackedFiles);
    this.detach = this.files.attach(branch);
  }

  /** Where file, shell and code tools work right now: the sandbox's worktree while one is active. */
  currentRoot(): string {
    return this.sandbox.session?.workdir ?? this.workspaceRoot;
  }

  /**
   * The workspace gate for a root, opened once per build and per option set: the guard must judge a path with
   * the same protected-name policy as the tool that will write it, or a path one refuses could slip past the other.
   */
  workspace(root: string, options?: WorkspaceOptions): Promise<Workspace> {
    const key = `${this.#optionKey(options)}\0${root}`;
    let ws = this.#workspaces.get(key);
    if (!ws) {
      ws = Workspace.open(root, options ?? {});
      ws.catch(() => this.#workspaces.delete(key));
      this.#workspaces.set(key, ws);
    }
    return ws;
  }

  #optionKey(options: WorkspaceOptions | undefined): number {
    if (!options) return 0;
    let key = this.#keys.get(options);
    if (key === undefined) {
      key = this.#nextKey++;
      this.#keys.set(options, key);
    }
    return key;
  }
}
