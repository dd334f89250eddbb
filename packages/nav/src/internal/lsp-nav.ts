import type { LspClient, LspFailure, LspSymbol } from '@bough/lsp';
import { readWorkspaceText, WORKSPACE_ERROR_CODES, type Workspace } from '@bough/workspace';
import type { NavErrorCode } from '../errors.js';
import type { NavLimits } from '../limits.js';
import type { NavItem, NavRequest } from '../schema.js';

/** Items found through a language server, or the failure that stopped the lookup (in code_nav's codes). */
export type LspNavAnswer =
  | { readonly ok: true; readonly items: NavItem[]; readonly notes: string[] }
  | { readonly ok: false; readonly error_code: NavErrorCode; readonly error: string };

const WORKSPACE_PASS: ReadonlySet<string> = new Set(WORKSPACE_ERROR_CODES);

/** A language-server failure in code_nav's codes: refusals of the gate keep theirs, server trouble is explained. */
export function navFailureOf(failure: LspFailure): { ok: false; error_code: NavErrorCode; error: string } {
  const code = failure.error_code;
  if (code === 'unavailable' || code === 'timeout' || code === 'unsupported_language' || code === 'aborted')
    return { ok: false, error_code: code, error: failure.error };
  if (WORKSPACE_PASS.has(code)) return { ok: false, error_code: code as NavErrorCode, error: failure.error };
  return { ok: false, error_code: 'nav_failed', error: failure.error };
}

const qualified = (s: LspSymbol): string => (s.container ? `${s.container}.${s.name}` : s.name);

// gopls names methods "(T).M" or "(*T).M" in some versions; the receiver is not part of what a caller types.
const bare = (name: string): string => name.replace(/^\(\*?[A-Za-z0-9_]+\)\./, '');

function matches(s: LspSymbol, symbol: string): boolean {
  return bare(s.name) === symbol || qualified(s) === symbol || `${s.container ?? ''}.${bare(s.name)}` === symbol;
}

function itemOf(s: LspSymbol, limits: NavLimits, file?: string): NavItem {
  return {
    kind: s.kind,
    name: s.container ? `${s.container}.${bare(s.name)}` : s.name,
    line: s.selectionRange.start.line + 1,
    col: s.selectionRange.start.character,
    ...(s.detail ? { signature: s.detail.slice(0, limits.maxSignatureChars) } : {}),
    ...(file !== undefined ? { file } : {}),
  };
}

/**
 * code_nav for languages served by a language server (Go, C/C++, …) over the given files: outlines from
 * `documentSymbol`; definitions are the outline entries with the name; references are the server's references from
 * each definition (found in these files or by a workspace-wide symbol query), kept when they fall in `within`.
 */
export async function lspNav(
  client: LspClient,
  workspace: Workspace,
  files: readonly string[],
  within: (file: string) => boolean,
  request: { action: Exclude<NavRequest['action'], 'hover' | 'rename'>; symbol: string; withFile: boolean },
  limits: NavLimits,
  signal?: AbortSignal,
): Promise<LspNavAnswer> {
  const call = signal ? { signal } : {};
  const items: NavItem[] = [];
  const definitions: Array<{ file: string; symbol: LspSymbol }> = [];
  for (const file of files) {
    const outline = await client.outline(file, call);
    if (!outline.success) {
      if (files.length === 1) return navFailureOf(outline);
      continue; // one unreadable file does not sink a directory query
    }
    for (const s of outline.symbols) {
      if (request.action === 'outline') items.push(itemOf(s, limits, request.withFile ? file : undefined));
      else if (matches(s, request.symbol)) definitions.push({ file, symbol: s });
    }
  }
  if (request.action === 'outline') return { ok: true, items, notes: [] };
  if (request.action === 'find_definition') {
    return {
      ok: true,
      items: definitions.map((d) => itemOf(d.symbol, limits, request.withFile ? d.file : undefined)),
      notes: [],
    };
  }
  // References: also ask the server for definitions elsewhere in the workspace (a caller's file names the callee).
  const starts = definitions.map((d) => ({ file: d.file, at: d.symbol.selectionRange.start }));
  const probe = files[0];
  if (probe !== undefined) {
    const found = await client.workspaceSymbols(probe, bare(request.symbol.split('.').pop() ?? request.symbol), call);
    if (found.success)
      for (const s of found.symbols)
        if (
          bare(s.name) === bare(request.symbol.split('.').pop() ?? '') ||
          `${s.container}.${s.name}` === request.symbol
        )
          starts.push({ file: s.location.file, at: s.location.range.start });
  }
  const seen = new Set<string>();
  const lines = new Map<string, string[]>();
  const notes: string[] = [];
  for (const start of starts) {
    const refs = await client.references(start.file, start.at, call);
    if (!refs.success) {
      notes.push(`References from ${start.file} failed: ${refs.error}`);
      continue;
    }
    for (const location of refs.locations) {
      const key = `${location.file}:${location.range.start.line}:${location.range.start.character}`;
      if (!within(location.file) || seen.has(key)) continue;
      seen.add(key);
      if (!lines.has(location.file)) {
        const read = await readWorkspaceText(workspace, location.file, { maxBytes: limits.maxFileBytes });
        lines.set(location.file, read.success ? read.text.split('\n') : []);
      }
      const text = lines.get(location.file)?.[location.range.start.line]?.trim() ?? '';
      items.push({
        kind: 'reference',
        name: request.symbol,
        line: location.range.start.line + 1,
        col: location.range.start.character,
        ...(text ? { signature: text.slice(0, limits.maxSignatureChars) } : {}),
        ...(request.withFile ? { file: location.file } : {}),
      });
    }
  }
  items.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || a.line - b.line || a.col - b.col);
  return { ok: true, items, notes };
}
