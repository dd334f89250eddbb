import { fileURLToPath } from 'node:url';
import { isInside } from '@bough/workspace/internal';
import type { Diagnostic, DocumentSymbol, SymbolInformation } from 'vscode-languageserver-protocol/node';
import type { LspDiagnostic, LspSymbol } from '../results.js';

// The protocol's SymbolKind numbers, 1-based, in order.
const SYMBOL_KINDS = [
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum_member',
  'struct',
  'event',
  'operator',
  'type_parameter',
];

/** The lower-case name of a protocol symbol kind. */
export function kindName(kind: number): string {
  return SYMBOL_KINDS[kind - 1] ?? 'symbol';
}

const SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;

/** A protocol diagnostic in this package's shape (a missing severity is an error, as the protocol suggests). */
export function toDiagnostic(d: Diagnostic): LspDiagnostic {
  return {
    range: d.range,
    severity: SEVERITIES[(d.severity ?? 1) - 1] ?? 'error',
    ...(d.code !== undefined ? { code: String(d.code) } : {}),
    message: typeof d.message === 'string' ? d.message : d.message.value,
    ...(d.source ? { source: d.source } : {}),
  };
}

/** A document outline, flattened in source order with each member naming its container. */
export function flattenSymbols(list: readonly (DocumentSymbol | SymbolInformation)[]): LspSymbol[] {
  const out: LspSymbol[] = [];
  const walk = (symbols: readonly (DocumentSymbol | SymbolInformation)[], container?: string): void => {
    for (const symbol of symbols) {
      if ('location' in symbol) {
        // The older flat form: no selection range, so the whole range stands in for it.
        const range = symbol.location.range;
        const parent = symbol.containerName || container;
        out.push({
          name: symbol.name,
          kind: kindName(symbol.kind),
          ...(parent ? { container: parent } : {}),
          range,
          selectionRange: range,
        });
        continue;
      }
      out.push({
        name: symbol.name,
        kind: kindName(symbol.kind),
        ...(symbol.detail ? { detail: symbol.detail } : {}),
        ...(container ? { container } : {}),
        range: symbol.range,
        selectionRange: symbol.selectionRange,
      });
      if (symbol.children) walk(symbol.children, symbol.name);
    }
  };
  walk(list);
  out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return out;
}

/** The workspace-relative posix path of a file URI inside `root`, or undefined for anything else. */
export function relativeOf(root: string, uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  let path: string;
  try {
    path = fileURLToPath(uri);
  } catch {
    return undefined;
  }
  if (!isInside(root, path)) return undefined;
  const rel = path.slice(root.length).replace(/^[/\\]+/, '');
  return rel === '' ? '.' : rel.split('\\').join('/');
}
