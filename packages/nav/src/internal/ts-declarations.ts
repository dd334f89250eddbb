import type { ts as TsNs } from '@ts-morph/common';

type TS = typeof TsNs;

/** A declaration found by name: its kind as navigate-to reports it, its file and where it starts. */
export interface DeclarationSite {
  readonly kind: string;
  readonly fileName: string;
  readonly start: number;
}

/** Declarations named exactly `symbol` in one source file (whose text is `text`), in the order navigate-to lists them. */
export type DeclarationFinder = (
  service: TsNs.LanguageService,
  program: TsNs.Program,
  source: TsNs.SourceFile,
  symbol: string,
  text: string,
) => DeclarationSite[];

/** Names made only of ASCII identifier characters, optionally a private `#name`. */
const PLAIN_NAME = /^#?[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Whether a file's text can hold a declaration named `symbol` (a plain name). A declared name is spelled out in its
 * file unless it is written with escapes (`\u0061` in an identifier, any backslash escape in a quoted name), so a file
 * with neither the name nor a backslash has none.
 */
const mayDeclare = (text: string, symbol: string): boolean => text.includes(symbol) || text.includes('\\');

/**
 * The public way: a navigate-to query on the one file, kept to items whose name is exactly `symbol`. Correct for any
 * name, but it fuzzy-matches (camel case, substrings) every name the file declares to find the one wanted.
 */
export const publicDeclarationFinder: DeclarationFinder = (service, _program, source, symbol) =>
  service
    .getNavigateToItems(symbol, undefined, source.fileName, true)
    .filter((item) => item.name === symbol)
    .map((item) => ({ kind: item.kind, fileName: item.fileName, start: item.textSpan.start }));

interface Internals {
  getNodeKind(node: TsNs.Node): string;
}

/** A source file of the language service, which indexes its declarations by name once per file text. */
interface IndexedSource {
  getNamedDeclarations?(): ReadonlyMap<string, readonly TsNs.Declaration[]>;
}

/**
 * Navigate-to drops an import that only brings a name in under the name it already had (`import { a } from`), and
 * keeps a renaming one; the same test, with navigate-to's own calls.
 */
function keptImport(t: TS, declaration: TsNs.Declaration, checker: TsNs.TypeChecker): boolean {
  if (!t.isImportClause(declaration) && !t.isImportSpecifier(declaration) && !t.isImportEqualsDeclaration(declaration))
    return true;
  const name = declaration.name;
  const importer = name ? checker.getSymbolAtLocation(name) : undefined;
  if (!importer) return false;
  const imported = checker.getAliasedSymbol(importer);
  return importer.escapedName !== imported.escapedName && imported.declarations?.length !== 0;
}

/**
 * Skips files whose text cannot hold the name, then looks the name up in the file's own index of declarations instead
 * of pattern-matching every declared name, and builds the same items navigate-to would (same kind, same start, same
 * order). Only plain identifier names take this path: navigate-to treats dots and other characters as pattern syntax,
 * and numeric names are normalised (`0x10` declares `16`). Falls back to {@link publicDeclarationFinder}
 * when this TypeScript build lacks the pieces; a test holds the two to identical answers.
 */
export function indexedDeclarationFinder(t: TS): DeclarationFinder {
  const internals = t as unknown as Partial<Internals>;
  const getNodeKind = internals.getNodeKind;
  if (typeof getNodeKind !== 'function') return publicDeclarationFinder;
  return (service, program, source, symbol, text) => {
    const index = (source as unknown as IndexedSource).getNamedDeclarations;
    if (!PLAIN_NAME.test(symbol) || typeof index !== 'function')
      return publicDeclarationFinder(service, program, source, symbol, text);
    if (!mayDeclare(text, symbol)) return [];
    const declarations = index.call(source).get(symbol);
    if (!declarations) return [];
    const checker = program.getTypeChecker();
    return declarations
      .filter((declaration) => keptImport(t, declaration, checker))
      .map((declaration) => ({
        kind: getNodeKind(declaration),
        fileName: source.fileName,
        start: declaration.getStart(),
      }));
  };
}
