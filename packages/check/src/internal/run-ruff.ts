import type { ToolProgress } from '@bough/core';
import { readWorkspaceText, type Workspace } from '@bough/workspace';
import { emptySkipCounts, type SkipCounts, skipReasonOf } from '@bough/workspace/internal';
import type { CodeCheckLimits } from '../limits.js';
import type { CodeDiagnostic } from '../schema.js';
import type { CheckFile } from './collect-files.js';
import { loadRuffConfig, ruffDefaults } from './ruff-config.js';

/** What a ruff pass produced. */
export interface EngineResult {
  diagnostics: CodeDiagnostic[];
  filesChecked: number;
  notReached: number;
  notes: string[];
  /** Requested files that could not be read (too large, refused, gone). */
  skipped: SkipCounts;
  unavailable?: string;
}

/** A result with nothing found yet, for an engine to fill in. */
export function emptyEngineResult(): EngineResult {
  return { diagnostics: [], filesChecked: 0, notReached: 0, notes: [], skipped: emptySkipCounts() };
}

/** Counts a file the gate would not hand over under the reason the response reports. */
export function countSkip(skipped: SkipCounts, errorCode: string | undefined): void {
  skipped[skipReasonOf(errorCode)]++;
}

interface RuffDiagnostic {
  code: string | null;
  message: string;
  start_location: { row: number; column: number };
  end_location: { row: number; column: number };
  fix: unknown;
}

type RuffModule = typeof import('@astral-sh/ruff-wasm-nodejs');

/** Files read ahead of the one being checked: enough to hide the gate's latency, few enough to bound memory. */
const READ_AHEAD = 8;

function makeChecker(ruff: RuffModule, options: Record<string, unknown>) {
  return new ruff.Workspace(options, ruff.PositionEncoding.Utf16);
}

/**
 * Lints Python files in-process with ruff's WebAssembly build, one file at a time so the time budget can stop it
 * between files. Settings come from the workspace's ruff configuration; per-file ignores are applied here.
 */
export async function runRuff(
  workspace: Workspace,
  files: readonly CheckFile[],
  limits: CodeCheckLimits,
  deadline: number,
  signal?: AbortSignal,
  progress?: (update: ToolProgress) => void,
): Promise<EngineResult> {
  const result = emptyEngineResult();
  let ruff: RuffModule;
  try {
    const loaded = (await import('@astral-sh/ruff-wasm-nodejs')) as RuffModule & { default?: RuffModule };
    ruff = loaded.default ?? loaded;
  } catch (error) {
    return { ...result, unavailable: `ruff (wasm) could not be loaded: ${(error as Error).message}` };
  }
  const config = await loadRuffConfig(workspace, limits.maxConfigBytes);
  result.notes.push(...config.notes);
  let checker: InstanceType<RuffModule['Workspace']>;
  try {
    checker = makeChecker(ruff, config.options);
  } catch (error) {
    const why = String((error as Error).message ?? error).replace(/^Error: /, '');
    try {
      checker = makeChecker(ruff, config.coreOptions);
      result.notes.push(
        `Some settings in ${config.source} were not understood (${why}); only the core ones were used.`,
      );
    } catch {
      checker = makeChecker(ruff, ruffDefaults());
      result.notes.push(`The settings in ${config.source} were refused (${why}); ruff defaults were used.`);
    }
  }
  // Files are read through the gate a few ahead of the one being checked, so the gate's filesystem round trips overlap
  // the (synchronous) checks instead of adding to them. Results are still taken strictly in order.
  const ahead: Array<ReturnType<typeof readWorkspaceText>> = [];
  let requested = 0;
  const readAhead = (upTo: number) => {
    while (requested < Math.min(files.length, upTo)) {
      const reading = readWorkspaceText(workspace, files[requested++]!.relative, { maxBytes: limits.maxFileBytes });
      reading.catch(() => undefined); // awaited in order below; never an unhandled rejection meanwhile
      ahead.push(reading);
    }
  };
  try {
    for (let i = 0; i < files.length; i++) {
      const file = files[i]!;
      if (signal?.aborted) break;
      if (Date.now() >= deadline) {
        result.notReached = files.length - i;
        break;
      }
      readAhead(i + READ_AHEAD);
      // The relative name keeps the workspace's absolute location out of the messages.
      const read = await ahead.shift()!;
      if ('error_code' in read) {
        countSkip(result.skipped, read.error_code);
        result.notes.push(`${file.relative} skipped: ${read.error}`);
        continue;
      }
      const ignored = config.perFileIgnores.filter((rule) => rule.glob.test(file.relative)).flatMap((r) => r.codes);
      const found = checker.check(read.text) as RuffDiagnostic[];
      progress?.({ message: 'ruff', completed: i + 1, total: files.length });
      result.filesChecked++;
      for (const d of found) {
        const code = d.code ?? '';
        if (code && ignored.some((prefix) => prefix === 'ALL' || code.startsWith(prefix))) continue;
        result.diagnostics.push({
          file: file.relative,
          line: d.start_location.row,
          col: d.start_location.column,
          end_line: d.end_location.row,
          end_col: d.end_location.column,
          severity: code === 'invalid-syntax' || code === '' ? 'error' : 'warning',
          code,
          message: d.message.slice(0, limits.maxMessageChars),
          source: 'ruff',
          fixable: d.fix != null,
        });
      }
    }
  } finally {
    checker.free();
  }
  if (config.source) result.notes.push(`ruff settings from ${config.source}.`);
  return result;
}
