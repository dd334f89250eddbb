import type { NapiConfig, SgNode } from '@ast-grep/napi';
import type { Napi } from '@bough/grammars';
import type { LanguageInfo } from '../languages.js';

/**
 * One way of matching the pattern, with the literal words any match of it must contain. A file that lacks one of the
 * words of every matcher cannot match and is not parsed.
 */
export interface PatternMatcher {
  readonly matcher: string | NapiConfig;
  readonly anchors: readonly string[];
}

/** Matchers to run for one pattern, or the reason it cannot be used. */
export type CompiledPattern = { ok: true; matchers: PatternMatcher[] } | { ok: false; reason: string };

/** Only whole words are used as anchors; punctuation is too common to rule a file out. */
const WORD = /^[\p{L}\p{Nl}_][\p{L}\p{N}_]*$/u;

function firstError(napi: Napi, lang: string, source: string): SgNode | null {
  return napi
    .parse(lang, source)
    .root()
    .find({ rule: { kind: 'ERROR' } });
}

function describeError(node: SgNode): string {
  const text = node.text().trim().replace(/\s+/g, ' ');
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `line ${node.range().start.line + 1}, near ${JSON.stringify(shown)}`;
}

/** Innermost named node that starts where the wrapped pattern starts and spans exactly its text. */
function selectorFor(
  napi: Napi,
  lang: string,
  source: string,
  patternText: string,
): { kind: string; start: number; end: number } | undefined {
  let best: { kind: string; start: number; end: number } | undefined;
  const visit = (node: SgNode): void => {
    const { start, end } = node.range();
    if (start.line === 1 && start.column === 0 && node.isNamed() && node.text() === patternText)
      best = { kind: String(node.kind()), start: start.index, end: end.index };
    for (const child of node.children()) visit(child);
  };
  visit(napi.parse(lang, source).root());
  return best;
}

/**
 * Words a match must contain verbatim: the text of every leaf of the pattern inside [start, end) that is a plain word
 * and cannot be a metavariable. ast-grep compares a non-metavariable leaf of the pattern by kind and exact text, so a
 * match always holds that text. Leaves holding `$` or the language's expando character are left out (they may be
 * metavariables once ast-grep substitutes the expando), and so are comments, which matching may skip.
 */
function anchorsOf(
  napi: Napi,
  info: LanguageInfo,
  expanded: string,
  original: string,
  start: number,
  end: number,
): string[] {
  const anchors = new Set<string>();
  const visit = (node: SgNode): void => {
    const range = node.range();
    if (range.end.index <= start || range.start.index >= end) return;
    const children = node.children();
    if (children.length > 0) {
      for (const child of children) visit(child);
      return;
    }
    if (range.start.index < start || range.end.index > end) return;
    if (String(node.kind()).toLowerCase().includes('comment')) return;
    const text = original.slice(range.start.index, range.end.index);
    if (!WORD.test(text) || text.includes('$') || text.includes(info.expando)) return;
    anchors.add(text);
  };
  visit(napi.parse(info.napiName, expanded).root());
  return [...anchors];
}

/**
 * Turns a pattern into the matchers that find it. A pattern that parses at the top level is used as is; for languages
 * whose statements are not valid at the top level (Go, C, C++, Rust, CSS) the pattern is also tried inside a function
 * or block, with the wrapping node stripped by a selector. Both forms run and their matches are merged.
 */
export function compilePattern(napi: Napi, info: LanguageInfo, pattern: string): CompiledPattern {
  // The expando is one UTF-16 unit like `$`, so offsets in the expanded text are offsets in the pattern too.
  const expanded = info.expando === '$' ? pattern : pattern.replaceAll('$', info.expando);
  const matchers: PatternMatcher[] = [];
  const topError = firstError(napi, info.napiName, expanded);
  if (!topError) {
    matchers.push({ matcher: pattern, anchors: anchorsOf(napi, info, expanded, pattern, 0, pattern.length) });
  }
  let wrapError: SgNode | null = null;
  if (info.wrap) {
    const context = info.wrap(pattern);
    const expandedContext = info.wrap(expanded);
    wrapError = firstError(napi, info.napiName, expandedContext);
    const selected = wrapError ? undefined : selectorFor(napi, info.napiName, expandedContext, expanded.trim());
    if (selected) {
      matchers.push({
        matcher: { rule: { pattern: { context, selector: selected.kind } } } as NapiConfig,
        anchors: anchorsOf(napi, info, expandedContext, context, selected.start, selected.end),
      });
    }
  }
  if (matchers.length === 0) {
    const where = describeError(topError ?? (wrapError as SgNode));
    return { ok: false, reason: `The pattern is not valid ${info.napiName} code (syntax error at ${where}).` };
  }
  try {
    const probe = napi.parse(info.napiName, '').root();
    for (const { matcher } of matchers) probe.findAll(matcher);
  } catch (error) {
    return { ok: false, reason: `ast-grep rejected the pattern: ${(error as Error).message}` };
  }
  return { ok: true, matchers };
}

/** True when the source holds every anchor of at least one matcher, i.e. when parsing it can find something. */
export function mayMatch(matchers: readonly PatternMatcher[], source: string): boolean {
  return matchers.some(({ anchors }) => anchors.every((anchor) => source.includes(anchor)));
}
