import type { LspClient } from '@bough/lsp';
import type { CodeCheckLimits } from '../limits.js';
import { fromLspDiagnostic } from '../lsp-diagnostic.js';
import type { CheckFile } from './collect-files.js';
import { countSkip, type EngineResult, emptyEngineResult } from './run-ruff.js';

/**
 * Diagnostics of Go, C/C++ and other server-backed files through `@bough/lsp`: each file's current text is sent to its
 * server and the answer for exactly that version is awaited (the client's bounded wait). A missing server makes the
 * run `unavailable` with the install command; a file whose answer did not arrive in time is named in a note.
 */
export async function runLsp(
  client: LspClient,
  files: readonly CheckFile[],
  limits: CodeCheckLimits,
  deadline: number,
  signal?: AbortSignal,
): Promise<EngineResult> {
  const result = emptyEngineResult();
  const unavailable = new Set<string>();
  for (const [index, file] of files.entries()) {
    if (signal?.aborted) break;
    if (Date.now() > deadline) {
      result.notReached = files.length - index;
      break;
    }
    const answer = await client.diagnostics(file.relative, signal ? { signal } : {});
    if (!answer.success) {
      if (answer.error_code === 'unavailable') unavailable.add(answer.error);
      else if (answer.error_code === 'timeout' || answer.error_code.startsWith('server_'))
        result.notes.push(`${file.relative}: ${answer.error}`);
      else countSkip(result.skipped, answer.error_code);
      continue;
    }
    result.filesChecked++;
    if (answer.note) result.notes.push(`${file.relative}: ${answer.note}`);
    for (const d of answer.diagnostics)
      result.diagnostics.push(fromLspDiagnostic(file.relative, d, limits.maxMessageChars));
  }
  if (unavailable.size > 0) result.unavailable = [...unavailable].join(' ');
  return result;
}
