import type { ts as TsNs } from '@ts-morph/common';
import type { NavItem } from '../schema.js';

/** What the project keeps of one source file it has read. */
export interface ScriptState {
  version: number;
  text: string;
  /** Metadata stamp of the file when its text was read; a different stamp means read it again. */
  stamp: string;
  relative: string;
  lineStarts?: readonly number[];
}

function newlineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The nav item for the position `start` of a project file, with its source line (trimmed, cut to `maxChars`). */
export function navItemAt(
  state: ScriptState | undefined,
  source: TsNs.SourceFile | undefined,
  kind: string,
  name: string,
  start: number,
  maxChars: number,
): NavItem | undefined {
  if (!state || !source) return undefined;
  const pos = source.getLineAndCharacterOfPosition(start);
  // Lines split at '\n' only, as before; computed once per file text instead of once per item.
  state.lineStarts ??= newlineStarts(state.text);
  const from = state.lineStarts[pos.line];
  const next = from === undefined ? -1 : state.text.indexOf('\n', from);
  const lineText = (from === undefined ? '' : state.text.slice(from, next === -1 ? undefined : next))
    .trim()
    .slice(0, maxChars);
  return { kind, name, line: pos.line + 1, col: pos.character, signature: lineText, file: state.relative };
}
