import type { LspDiagnostic } from '@bough/lsp';
import type { CodeDiagnostic } from './schema.js';

const SEVERITY = { error: 'error', warning: 'warning', info: 'info', hint: 'info' } as const;

/**
 * A language server's diagnostic as code_check reports one: 1-based lines and columns, the server's severity folded
 * into code_check's three, the message cut at `maxMessageChars` when given. Shared by code_check's server path and
 * the coding toolkit's "diagnostics the edit introduced", so both speak of a finding the same way.
 */
export function fromLspDiagnostic(file: string, d: LspDiagnostic, maxMessageChars?: number): CodeDiagnostic {
  return {
    file,
    line: d.range.start.line + 1,
    col: d.range.start.character + 1,
    end_line: d.range.end.line + 1,
    end_col: d.range.end.character + 1,
    severity: SEVERITY[d.severity],
    code: d.code ?? '',
    message: maxMessageChars === undefined ? d.message : d.message.slice(0, maxMessageChars),
    source: d.source ?? 'lsp',
    fixable: false,
  };
}
