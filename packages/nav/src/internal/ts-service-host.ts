import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Workspace } from '@bough/workspace';
import { isInside } from '@bough/workspace/internal';
import type { ts as TsNs } from 'ts-morph';
import type { ScriptState } from './ts-nav-item.js';

type TS = typeof TsNs;

/** The parts of a project the language service host reads; each is asked for again on every call. */
export interface ProjectView {
  readonly files: ReadonlyMap<string, ScriptState>;
  fileNames(): string[];
  projectVersion(): number;
  options(): TsNs.CompilerOptions;
  /** The workspace of the last refresh (undefined before the first), for library files that lie inside it. */
  workspace(): Workspace | undefined;
  /** Largest file read, the tool's `maxFileBytes`. */
  maxFileBytes(): number;
}

/**
 * Reads a file inside the workspace synchronously the gate's way ({@link Workspace.holdDirSync}): its parent held open
 * and proven to be that real directory inside the root, no protected component, the name opened without following a
 * link and only as a regular file within `maxBytes`. Undefined for anything else (also where a held directory cannot
 * open by descriptor: such a library is then absent rather than read unchecked).
 */
function readInsideSync(workspace: Workspace, p: string, maxBytes: number): string | undefined {
  const dir = workspace.holdDirSync(dirname(p));
  try {
    return dir?.readText(basename(p), maxBytes);
  } finally {
    dir?.close();
  }
}

/** A language service over `view`, and a way to drop its module resolution cache. */
export interface ProjectService {
  readonly service: TsNs.LanguageService;
  /** Called when the file set or the options change; a text edit alone keeps the cache. */
  dropResolutions(): void;
}

/**
 * Builds the language service host of a project. Project files come only from `view`; library files are read once
 * each: from disk where they lie outside the workspace, through {@link readInsideSync} where a project installs
 * TypeScript under the workspace itself (so a protected name or a link there is absent, like everywhere else).
 * Module resolutions and package.json lookups are kept across program versions: they depend only on the file set and
 * the options (the host serves nothing else), so the owner drops them when either changes.
 */
export function createProjectService(t: TS, root: string, view: ProjectView): ProjectService {
  let resolutionCache: TsNs.ModuleResolutionCache | undefined;
  const libDir = dirname(t.getDefaultLibFilePath(view.options()));
  const libTexts = new Map<string, string | undefined>();
  // Library files never change while the process runs; each is read once.
  const readLib = (p: string) => {
    if (libTexts.has(p)) return libTexts.get(p);
    let text: string | undefined;
    if (!isInside(libDir, p)) text = undefined;
    else if (isInside(root, p)) {
      const workspace = view.workspace();
      if (!workspace) return undefined; // not before the first refresh, and not remembered as missing either
      text = readInsideSync(workspace, p, view.maxFileBytes());
    } else {
      try {
        text = readFileSync(p, 'utf8');
      } catch {
        text = undefined;
      }
    }
    libTexts.set(p, text);
    return text;
  };
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
  const service = t.createLanguageService(host, t.createDocumentRegistry(t.sys.useCaseSensitiveFileNames, root));
  return {
    service,
    dropResolutions: () => {
      resolutionCache = undefined;
    },
  };
}
