import type { NapiConfig, SgNode } from '@ast-grep/napi';
import type { Napi } from '@branchkit/grammars';
import type { LanguageInfo } from '../languages.js';

/** Matchers to run for one pattern, or the reason it cannot be used. */
export type CompiledPattern = { ok: true; matchers: (string | NapiConfig)[] } | { ok: false; reason: string };

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
function selectorFor(napi: Napi, lang: string, source: string, patternText: string): string | undefined {
  let best: string | undefined;
  const visit = (node: SgNode): void => {
    const start = node.range().start;
    if (start.line === 1 && start.column === 0 && node.isNamed() && node.text() === patternText)
      best = String(node.kind());
    for (const child of node.children()) visit(child);
  };
  visit(napi.parse(lang, source).root());
  return best;
}

/**
 * Turns a pattern into the matchers that find it. A pattern that parses at the top level is used as is; for languages
 * whose statements are not valid at the top level (Go, C, C++, Rust, CSS) the pattern is also tried inside a function
 * or block, with the wrapping node stripped by a selector. Both forms run and their matches are merged.
 */
export function compilePattern(napi: Napi, info: LanguageInfo, pattern: string): CompiledPattern {
  const expanded = info.expando === '$' ? pattern : pattern.replaceAll('$', info.expando);
  const matchers: (string | NapiConfig)[] = [];
  const topError = firstError(napi, info.napiName, expanded);
  if (!topError) matchers.push(pattern);
  let wrapError: SgNode | null = null;
  if (info.wrap) {
    const context = info.wrap(pattern);
    const expandedContext = info.wrap(expanded);
    wrapError = firstError(napi, info.napiName, expandedContext);
    const selector = wrapError ? undefined : selectorFor(napi, info.napiName, expandedContext, expanded.trim());
    if (selector) matchers.push({ rule: { pattern: { context, selector } } } as NapiConfig);
  }
  if (matchers.length === 0) {
    const where = describeError(topError ?? (wrapError as SgNode));
    return { ok: false, reason: `The pattern is not valid ${info.napiName} code (syntax error at ${where}).` };
  }
  try {
    const probe = napi.parse(info.napiName, '').root();
    for (const matcher of matchers) probe.findAll(matcher);
  } catch (error) {
    return { ok: false, reason: `ast-grep rejected the pattern: ${(error as Error).message}` };
  }
  return { ok: true, matchers };
}
