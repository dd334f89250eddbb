import type { LspClient } from '@bough/lsp';
import type { Workspace } from '@bough/workspace';
import type { NavLimits } from '../limits.js';
import type { NavItem } from '../schema.js';
import { type LspNavAnswer, lspNav, navFailureOf } from './lsp-nav.js';

/** The answer of `hover` or `rename`: items, notes, and for a rename the patch. */
export type LspSymbolAnswer =
  | (Extract<LspNavAnswer, { ok: true }> & { readonly patch?: string })
  | Extract<LspNavAnswer, { ok: false }>;

/** How many definitions of one name a hover describes; more are listed without hover text. */
const HOVERED = 5;

type Definition = NavItem & { file: string };

async function definitionsOf(
  client: LspClient,
  workspace: Workspace,
  files: readonly string[],
  within: (file: string) => boolean,
  symbol: string,
  limits: NavLimits,
  signal?: AbortSignal,
): Promise<{ ok: true; items: Definition[]; notes: string[] } | Extract<LspNavAnswer, { ok: false }>> {
  const found = await lspNav(
    client,
    workspace,
    files,
    within,
    { action: 'find_definition', symbol, withFile: true },
    limits,
    signal,
  );
  if (!found.ok) return found;
  return { ok: true, items: found.items.filter((i): i is Definition => i.file !== undefined), notes: found.notes };
}

const positionOf = (item: NavItem) => ({ line: item.line - 1, character: item.col });

/** `hover`: the server's hover text (type, signature, documentation) at each definition of `symbol` in `files`. */
export async function lspHover(
  client: LspClient,
  workspace: Workspace,
  files: readonly string[],
  within: (file: string) => boolean,
  symbol: string,
  limits: NavLimits,
  signal?: AbortSignal,
): Promise<LspSymbolAnswer> {
  const defs = await definitionsOf(client, workspace, files, within, symbol, limits, signal);
  if (!defs.ok) return defs;
  const items: NavItem[] = [];
  for (const [index, def] of defs.items.entries()) {
    if (index >= HOVERED) {
      items.push(def);
      continue;
    }
    const hover = await client.hover(def.file, positionOf(def), signal ? { signal } : {});
    if (!hover.success) return navFailureOf(hover);
    items.push(hover.text ? { ...def, doc: hover.text.slice(0, limits.maxHoverChars) } : def);
  }
  const notes = [...defs.notes];
  if (defs.items.length > HOVERED) notes.push(`Hover text is given for the first ${HOVERED} definitions.`);
  return { ok: true, items, notes };
}

/**
 * `rename`: what renaming the one definition of `symbol` in `files` to `newName` changes, as a dry run through the
 * server: one item per replaced occurrence and a unified diff the editor's `patch` action applies. Several
 * definitions are refused (the caller narrows the path); none is an empty answer.
 */
export async function lspRename(
  client: LspClient,
  workspace: Workspace,
  files: readonly string[],
  within: (file: string) => boolean,
  symbol: string,
  newName: string,
  limits: NavLimits,
  signal?: AbortSignal,
): Promise<LspSymbolAnswer> {
  const defs = await definitionsOf(client, workspace, files, within, symbol, limits, signal);
  if (!defs.ok) return defs;
  const [only, ...more] = defs.items;
  if (!only) return { ok: true, items: [], notes: [`No definition of ${symbol} was found; nothing to rename.`] };
  if (more.length > 0) {
    const where = defs.items.map((d) => `${d.file}:${d.line}`).join(', ');
    return {
      ok: false,
      error_code: 'invalid_request',
      error: `${symbol} is defined ${defs.items.length} times (${where}); pass the file of the one to rename as path.`,
    };
  }
  const planned = await client.rename(only.file, positionOf(only), newName, signal ? { signal } : {});
  if (!planned.success) return navFailureOf(planned);
  const items: NavItem[] = planned.files.flatMap(({ file, ranges }) =>
    ranges.map((range) => ({
      kind: 'edit',
      name: `${symbol} -> ${newName}`,
      line: range.start.line + 1,
      col: range.start.character,
      file,
    })),
  );
  items.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || a.line - b.line || a.col - b.col);
  return { ok: true, items, notes: planned.note ? [planned.note] : [], patch: planned.patch };
}
