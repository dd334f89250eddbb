import { CheckCache, type CodeDiagnostic, handleCodeCheck } from '@bough/check';
import { isWorkspaceFailure, type Workspace } from '@bough/workspace';

/** Files the check understands: Python for ruff, TypeScript and JavaScript for the compiler. */
const CHECKED = /\.(py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i;

/** A diagnostic the change introduced, as `code_check` reports it. */
export type IntroducedDiagnostic = CodeDiagnostic;

/** Fields added to a successful write, edit, multi_edit or patch result. */
export interface IntroducedFields {
  /** Diagnostics present after the change and not before it (matched by code and message, so moved lines still match). */
  readonly diagnostics_introduced: IntroducedDiagnostic[];
  /** Said when the check could not finish within its budget or could not run; the list is then incomplete. */
  readonly diagnostics_note?: string;
}

/** The limits the watcher works within. */
export interface DiagnosticsLimits {
  readonly diagnosticsBudgetMs: number;
  readonly diagnosticsPerFile: number;
}

/** A check started before a change, finished by `after()` once the change succeeded. */
export interface DiagnosticsWatch {
  after(): Promise<IntroducedFields>;
}

const key = (d: CodeDiagnostic) => `${d.code}\u0000${d.message}`;

/**
 * Finds the diagnostics an edit introduced: runs the check on the files a change touches before it is applied and
 * again after, both within one time budget, and keeps what is new. One per toolkit build: it keeps the checker's
 * parsed trees between edits.
 */
export class DiagnosticsWatcher {
  readonly #cache = new CheckCache();
  readonly #limits: DiagnosticsLimits;

  constructor(limits: DiagnosticsLimits) {
    this.#limits = limits;
  }

  /**
   * Checks the files a change is about to touch (as given; the gate resolves them); undefined when none of them is
   * a file the check understands.
   */
  async before(ws: Workspace, paths: readonly string[]): Promise<DiagnosticsWatch | undefined> {
    const files: string[] = [];
    for (const path of paths) {
      if (!CHECKED.test(path)) continue;
      const resolved = await ws.resolve(path, 'write');
      if (!isWorkspaceFailure(resolved) && !files.includes(resolved.relative)) files.push(resolved.relative);
    }
    if (files.length === 0) return undefined;
    const deadline = Date.now() + this.#limits.diagnosticsBudgetMs;
    const existing: string[] = [];
    for (const file of files) {
      const resolved = await ws.resolve(file, 'read');
      if (!isWorkspaceFailure(resolved) && resolved.exists) existing.push(file);
    }
    const before = existing.length > 0 ? await this.#check(ws.root, existing, deadline) : { diagnostics: [] };
    return {
      after: async () => {
        if ('note' in before) return { diagnostics_introduced: [], diagnostics_note: before.note };
        const after = await this.#check(ws.root, files, deadline);
        if ('note' in after) return { diagnostics_introduced: [], diagnostics_note: after.note };
        return { diagnostics_introduced: this.#introduced(before.diagnostics, after.diagnostics) };
      },
    };
  }

  #introduced(before: readonly CodeDiagnostic[], after: readonly CodeDiagnostic[]): CodeDiagnostic[] {
    const pool = new Map<string, number>();
    for (const d of before) pool.set(key(d), (pool.get(key(d)) ?? 0) + 1);
    const perFile = new Map<string, number>();
    const out: CodeDiagnostic[] = [];
    for (const d of after) {
      const left = pool.get(key(d)) ?? 0;
      if (left > 0) {
        pool.set(key(d), left - 1);
        continue;
      }
      const shown = perFile.get(d.file) ?? 0;
      if (shown >= this.#limits.diagnosticsPerFile) continue;
      perFile.set(d.file, shown + 1);
      out.push(d);
    }
    return out;
  }

  async #check(
    root: string,
    paths: string[],
    deadline: number,
  ): Promise<{ diagnostics: CodeDiagnostic[] } | { note: string }> {
    const budget = deadline - Date.now();
    const ranOut = `The check for introduced diagnostics ran out of its ${this.#limits.diagnosticsBudgetMs} ms budget; run code_check on the changed files to see them.`;
    if (budget <= 0) return { note: ranOut };
    const signal = AbortSignal.timeout(budget);
    const result = await handleCodeCheck(
      { paths, max_diagnostics: 500 },
      { workspaceRoot: root, limits: { timeBudgetMs: budget }, signal, cache: this.#cache },
    );
    if (signal.aborted || Date.now() > deadline) return { note: ranOut };
    if (result.status === 'unavailable' || result.status === 'error')
      return { note: `The check for introduced diagnostics could not run: ${result.summary}` };
    if (result.total > result.diagnostics.length)
      return { note: 'The changed files have more diagnostics than one check returns; run code_check on them.' };
    return { diagnostics: result.diagnostics };
  }
}
