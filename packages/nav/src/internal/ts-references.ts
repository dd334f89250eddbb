import type { ts as TsNs } from '@ts-morph/common';

type TS = typeof TsNs;

/** One place the language service reports for a symbol: a file, an offset, and whether it declares the symbol. */
export interface ReferenceSite {
  readonly fileName: string;
  readonly start: number;
  readonly isDefinition: boolean;
}

/** Finds every reference to the declaration at a position, the way `findReferences` groups and flags them. */
export type ReferenceFinder = (
  service: TsNs.LanguageService,
  program: TsNs.Program,
  fileName: string,
  position: number,
) => ReferenceSite[];

/** A reference entry of the compiler's find-all-references core: a node, or a bare span (kind 0). */
interface CoreEntry {
  readonly kind: number;
  readonly node?: TsNs.Node;
  readonly fileName?: string;
  readonly textSpan?: TsNs.TextSpan;
}

/** The compiler internals the lean search calls; `findReferences` itself is built from exactly these. */
interface Internals {
  getTouchingPropertyName(sourceFile: TsNs.SourceFile, position: number): TsNs.Node;
  getDeclarationFromName(node: TsNs.Node): TsNs.Declaration | undefined;
  isLiteralComputedPropertyDeclarationName(node: TsNs.Node): boolean;
  FindAllReferences: {
    FindReferencesUse: { References: number };
    isDeclarationOfSymbol(node: TsNs.Node, symbol: TsNs.Symbol | undefined): boolean;
    Core: {
      getAdjustedNode(node: TsNs.Node, options: { use: number }): TsNs.Node;
      getReferencedSymbolsForNode(
        position: number,
        node: TsNs.Node,
        program: TsNs.Program,
        sourceFiles: readonly TsNs.SourceFile[],
        cancellationToken: TsNs.CancellationToken,
        options: { use: number },
        sourceFilesSet: Set<string>,
      ): { definition: unknown; references: CoreEntry[] }[] | undefined;
    };
  };
}

const NEVER_CANCELLED: TsNs.CancellationToken = {
  isCancellationRequested: () => false,
  throwIfCancellationRequested: () => {},
};

/**
 * The public `findReferences`: correct everywhere, but it also renders display text (a signature) for every group it
 * returns, and a function imported by N files comes back as N + 1 groups. That rendering is most of a query's time.
 */
export const publicReferenceFinder: ReferenceFinder = (service, _program, fileName, position) => {
  const sites: ReferenceSite[] = [];
  for (const group of service.findReferences(fileName, position) ?? []) {
    for (const ref of group.references)
      sites.push({ fileName: ref.fileName, start: ref.textSpan.start, isDefinition: ref.isDefinition === true });
  }
  return sites;
};

function internalsOf(t: TS): Internals | undefined {
  const i = t as unknown as Partial<Internals>;
  const far = i.FindAllReferences;
  const ok =
    typeof i.getTouchingPropertyName === 'function' &&
    typeof i.getDeclarationFromName === 'function' &&
    typeof i.isLiteralComputedPropertyDeclarationName === 'function' &&
    typeof far?.isDeclarationOfSymbol === 'function' &&
    typeof far.Core?.getAdjustedNode === 'function' &&
    typeof far.Core.getReferencedSymbolsForNode === 'function' &&
    typeof far.FindReferencesUse?.References === 'number';
  return ok ? (i as Internals) : undefined;
}

/**
 * The same search as `findReferences` (same groups, same entries, same definition flags, same order) without the
 * display text nobody reads here. It calls the compiler's own find-all-references core; if this TypeScript build
 * does not expose it, the public `findReferences` is used instead. A test holds the two to identical answers.
 */
export function leanReferenceFinder(t: TS): ReferenceFinder {
  const internals = internalsOf(t);
  if (!internals) return publicReferenceFinder;
  const far = internals.FindAllReferences;
  const options = { use: far.FindReferencesUse.References };
  // Looked up once: the namespace object is large and these run once per reference.
  const { isDeclarationOfSymbol } = far;
  const { isStringLiteralLike } = t;
  // The set of file names depends only on the program; built once per program, not once per declaration.
  let filesOf: { program: TsNs.Program; files: readonly TsNs.SourceFile[]; names: Set<string> } | undefined;
  return (_service, program, fileName, position) => {
    const sourceFile = program.getSourceFile(fileName);
    if (!sourceFile) return [];
    if (filesOf?.program !== program) {
      const files = program.getSourceFiles();
      filesOf = { program, files, names: new Set(files.map((f) => f.fileName)) };
    }
    const node = internals.getTouchingPropertyName(sourceFile, position);
    const groups = far.Core.getReferencedSymbolsForNode(
      position,
      node,
      program,
      filesOf.files,
      NEVER_CANCELLED,
      options,
      filesOf.names,
    );
    if (!groups || groups.length === 0) return [];
    // As in findReferences: an entry is a definition when it declares the symbol at the queried declaration.
    const adjusted = far.Core.getAdjustedNode(node, options);
    const isDefinitionSite =
      adjusted.kind === t.SyntaxKind.DefaultKeyword ||
      internals.getDeclarationFromName(adjusted) !== undefined ||
      internals.isLiteralComputedPropertyDeclarationName(adjusted) ||
      (adjusted.kind === t.SyntaxKind.ConstructorKeyword && t.isConstructorDeclaration(adjusted.parent));
    const symbol = isDefinitionSite ? program.getTypeChecker().getSymbolAtLocation(adjusted) : undefined;
    const sites: ReferenceSite[] = [];
    for (const group of groups) {
      // findReferences leaves out groups without a definition (text found in strings or comments).
      if (!group.definition) continue;
      for (const entry of group.references) {
        const node = entry.node;
        if (!node) {
          sites.push({ fileName: entry.fileName ?? '', start: entry.textSpan?.start ?? 0, isDefinition: false });
          continue;
        }
        const file = node.getSourceFile();
        let start = node.getStart(file);
        // A string literal's span leaves out its quotes.
        if (isStringLiteralLike(node) && node.getEnd() - start > 2) start += 1;
        const isDefinition = symbol !== undefined && isDeclarationOfSymbol(node, symbol);
        sites.push({ fileName: file.fileName, start, isDefinition });
      }
    }
    return sites;
  };
}
