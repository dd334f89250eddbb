import type { ts as TsNs } from '@ts-morph/common';
import { libraryPaths, sharedLibraryRegistry } from './library-registry.js';
import type { ScriptState } from './ts-nav-item.js';

type TS = typeof TsNs;

/** The parts of a project the language service host reads; each is asked for again on every call. */
export interface ProjectView {
  readonly files: ReadonlyMap<string, ScriptState>;
  fileNames(): string[];
  projectVersion(): number;
  options(): TsNs.CompilerOptions;
}

/** The compiler's standard library (`lib.d.ts`, `lib.es2020.promise.d.ts`, `lib.dom.d.ts` …): file names and texts. */
export type StandardLibrary = readonly { readonly fileName: string; readonly text: string }[];

/** A language service over `view`, and a way to drop its module resolution cache. */
export interface ProjectService {
  readonly service: TsNs.LanguageService;
  /** Called when the file set or the options change; a text edit alone keeps the cache. */
  dropResolutions(): void;
}

/**
 * Builds the language service host of a project. Project files come only from `view`; the standard library comes only
 * from `library`, the texts the compiler module carries (`@ts-morph/common` ships them inside itself, not as files
 * next to the compiler, so the paths it names them by hold nothing on disk), served under the compiler's library
 * directory. Nothing else is ever read: not a library file on disk, nor one under the workspace. Module resolutions and package.json lookups are kept across program versions: they depend only on the file set and
 * the options (the host serves nothing else), so the owner drops them when either changes.
 */
export function createProjectService(t: TS, root: string, view: ProjectView, library: StandardLibrary): ProjectService {
  let resolutionCache: TsNs.ModuleResolutionCache | undefined;
  const paths = libraryPaths(t, root, view.options());
  // Keyed by TypeScript's normalised path, so a name differing only in case still finds its text where the compiler
  // treats file names case-insensitively.
  const libTexts = new Map(library.map((file) => [paths.pathOf(paths.nameOf(file.fileName)), file.text]));
  const readLib = (p: string) => libTexts.get(paths.pathOf(p));
  const moduleHost: TsNs.ModuleResolutionHost = {
    fileExists: (p) => view.files.has(p) || readLib(p) !== undefined,
    readFile: (p) => view.files.get(p)?.text ?? readLib(p),
    useCaseSensitiveFileNames: t.sys.useCaseSensitiveFileNames,
  };
  const resolutions = () =>
    (resolutionCache ??= t.createModuleResolutionCache(
      root,
      t.sys.useCaseSensitiveFileNames ? (f) => f : (f) => f.toLowerCase(),
      view.options(),
    ));
  // The service passes `getModuleResolutionCache` on to its programs (not in the public typings of this host).
  const host: TsNs.LanguageServiceHost & { getModuleResolutionCache(): TsNs.ModuleResolutionCache } = {
    getProjectVersion: () => String(view.projectVersion()),
    getScriptFileNames: () => view.fileNames(),
    getScriptVersion: (f) => String(view.files.get(f)?.version ?? 0),
    getScriptSnapshot: (f) => {
      const text = view.files.get(f)?.text ?? readLib(f);
      return text === undefined ? undefined : t.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    // Without this every path is lower-cased on each lookup, and names differing only in case would collide.
    useCaseSensitiveFileNames: () => t.sys.useCaseSensitiveFileNames,
    // Read on every query, so a changed tsconfig.json takes effect at the next refresh.
    getCompilationSettings: () => view.options(),
    getDefaultLibFileName: (o) => t.getDefaultLibFilePath(o),
    fileExists: moduleHost.fileExists,
    readFile: moduleHost.readFile,
    // What the service does by default, but with one cache for every program instead of a new one per edit.
    getModuleResolutionCache: resolutions,
    resolveModuleNameLiterals: (literals, containingFile, redirected, options, containingSource) =>
      literals.map((literal) =>
        t.resolveModuleName(
          literal.text,
          containingFile,
          options,
          moduleHost,
          resolutions(),
          redirected,
          t.getModeForUsageLocation(containingSource, literal, options),
        ),
      ),
  };
  const service = t.createLanguageService(
    host,
    sharedLibraryRegistry(t, root, (path) => libTexts.has(path)),
  );
  return {
    service,
    dropResolutions: () => {
      resolutionCache = undefined;
    },
  };
}
