import { CheckCache, type CodeDiagnostic, handleCodeCheck } from '@bough/check';
import type { LspClient } from '@bough/lsp';
import { isWorkspaceFailure, type Workspace } from '@bough/workspace';
import { type ServerWatch, watchThroughServer } from './server-diagnostics.js';

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
  readonly serverDiagnosticsWaitMs: number;
}

/** A check started before a change, finished by `after()` once the change succeeded. */
export interface DiagnosticsWatch {
  after(): Promise<IntroducedFields>;
}

const key = (d: CodeDiagnostic) => `${d.code}\u0000${d.message}`;

/**
 * Finds the diagnostics an edit introduced: runs the check on the files a change touches before it is applied and
 * again after, both within one time budget, and keeps what is new. Files a language server answers for (Go, C/C++,
 * …) are asked of the server instead, callers it re-checks included (see `watchThroughServer`). One per toolkit
 * build: it keeps the checker's parsed trees between edits.
 */
export class DiagnosticsWatcher {
  readonly #cache = new CheckCache();
  readonly #limits: DiagnosticsLimits;
  readonly #lspFor: ((root: string) => LspClient | undefined) | undefined;

  constructor(limits: DiagnosticsLimits, lspFor?: (root: string) => LspClient | undefined) {
    this.#limits = limits;
    this.#lspFor = lspFor;
  }

  /**
   * Checks the files a change is about to touch (as given; the gate resolves them); undefined when none of them is
   * a file the check understands.
   */
  async before(ws: Workspace, paths: readonly string[]): Promise<DiagnosticsWatch | undefined> {
    const files: string[] = [];
    const served: string[] = [];
    const client = this.#lspFor?.(ws.root);
    for (const path of paths) {
      const checked = CHECKED.test(path);
      if (!checked && !client?.supports(path)) continue;
      const resolved = await ws.resolve(path, 'write');
      if (isWorkspaceFailure(resolved)) continue;
      const into = checked ? files : served;
      if (!into.includes(resolved.relative)) into.push(resolved.relative);
    }
    const server =
      client && served.length > 0
        ? await watchThroughServer(client, ws, served, this.#limits.serverDiagnosticsWaitMs)
        : undefined;
    const checked = files.length > 0 ? await this.#beforeCheck(ws, files) : undefined;
    if (!server && !checked) return undefined;
    return {
      after: async () => {
        const parts = await Promise.all([checked?.after(), this.#afterServer(server)]);
        const notes = parts.flatMap((part) => (part?.diagnostics_note ? [part.diagnostics_note] : []));
        return {
          diagnostics_introduced: parts.flatMap((part) => part?.diagnostics_introduced ?? []),
          ...(notes.length > 0 ? { diagnostics_note: notes.join(' ') } : {}),
        };
      },
    };
  }

  async #afterServer(server: ServerWatch | undefined): Promise<IntroducedFields | undefined> {
    if (!server) return undefined;
    const { diagnostics, notes } = await server.after();
    return {
      diagnostics_introduced: this.#capped(diagnostics),
      ...(notes.length > 0 ? { diagnostics_note: notes.join(' ') } : {}),
    };
  }

  #capped(found: readonly CodeDiagnostic[]): CodeDiagnostic[] {
    const perFile = new Map<string, number>();
    return found.filter((d) => {
      const shown = perFile.get(d.file) ?? 0;
      perFile.set(d.file, shown + 1);
      return shown < this.#limits.diagnosticsPerFile;
    });
  }

  async #beforeCheck(ws: Workspace, files: string[]): Promise<DiagnosticsWatch> {
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
