import { detailLines, isRecord, joinLines, stringOf, type ToolSummaryParts } from '@bough/core';

// How bash and bash_jobs present a command's output (see core's ToolRendering): for a model and for the CLI.

/** stdout, then stderr under a marker, then how the command ended when that was not a plain exit 0. */
export function commandModelText(output: unknown): string | undefined {
  if (!isRecord(output) || typeof output.stdout !== 'string' || typeof output.stderr !== 'string') return undefined;
  const code = typeof output.return_code === 'number' ? output.return_code : undefined;
  const status =
    output.timed_out === true
      ? `[timed out after ${String(output.timeout_ms)} ms]`
      : typeof output.signal === 'string'
        ? `[ended by ${output.signal}]`
        : code !== 0
          ? `[exit code ${String(code)}]`
          : undefined;
  const stderr = output.stderr;
  const text = joinLines([
    output.stdout.replace(/\n$/, ''),
    stderr ? `[stderr]\n${stderr.replace(/\n$/, '')}` : undefined,
    status,
    stringOf(output.note) ? `[${stringOf(output.note)}]` : undefined,
  ]);
  return text || '(no output)';
}

/** The exit status as the headline, stdout's first lines below it. */
export function commandSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isRecord(output) || typeof output.return_code !== 'number') return undefined;
  const timedOut = output.timed_out ? ' (timed out)' : '';
  return { headline: `exit ${output.return_code}${timedOut}`, details: detailLines(String(output.stdout ?? '')) };
}
