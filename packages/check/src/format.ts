import type { CodeDiagnostic } from './schema.js';

/** One diagnostic as a line a model or a terminal can read: `file:line:col: SEVERITY code message [fixable]`. */
export function diagnosticLine(d: CodeDiagnostic): string {
  const code = d.code ? ` ${d.code}` : '';
  return `${d.file}:${d.line}:${d.col}: ${d.severity.toUpperCase()}${code} ${d.message.replace(/\s*\n\s*/g, ' ')}${d.fixable ? ' [fixable]' : ''}`;
}

/** The headline of a check: "No issues found." or "N issue(s) found (showing s/N)." */
export function headline(total: number, shown: number): string {
  if (total === 0) return 'No issues found.';
  return `${total} issue(s) found${shown < total ? ` (showing ${shown}/${total})` : ''}.`;
}
