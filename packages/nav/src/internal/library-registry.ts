import { posix } from 'node:path';
import type { ts as TsNs } from '@ts-morph/common';
import { SHARED_LIBRARY_SETTINGS } from '../limits.js';

type TS = typeof TsNs;
type Registry = TsNs.DocumentRegistry;
type Canonical = (fileName: string) => string;

/**
 * Compiler internals this module leans on, checked at run time. `createDocumentRegistryInternal` takes the same
 * `externalCache` tsserver passes to share parsed documents between its projects: the registry asks it before parsing
 * and tells it what it parsed, always by TypeScript's own normalised path and settings key, while every project keeps
 * its own reference counts. So a release never has to be routed anywhere, whatever the file system's case rules.
 */
interface Internals {
  toPath(fileName: string, base: string, canonical: Canonical): string;
  createGetCanonicalFileName(useCaseSensitiveFileNames: boolean): Canonical;
  createDocumentRegistryInternal?(
    useCaseSensitiveFileNames: boolean,
    currentDirectory: string,
    jsDocParsingMode: undefined,
    externalCache: ExternalCache,
  ): Registry;
}

interface ExternalCache {
  getDocument(key: string, path: string): TsNs.SourceFile | undefined;
  setDocument(key: string, path: string, sourceFile: TsNs.SourceFile): void;
}

/**
 * Parsed standard-library files per compiler, one set per settings key (target, JSX mode … and module format), most
 * recently used last. The files are the compiler's own constant texts (lib.dom.d.ts alone is about 2 MB), so a parse
 * made for one project serves every later one with the same key; without it each new project parsed and bound them
 * again, most of a cold start. Each set is ~40 MB, so only {@link SHARED_LIBRARY_SETTINGS} are kept: an evicted set
 * lives on only in the projects still holding its files. Keyed weakly, so it goes with the compiler.
 */
const parsedLibraries = new WeakMap<TS, Map<string, Map<string, TsNs.SourceFile>>>();

function librarySets(t: TS): Map<string, Map<string, TsNs.SourceFile>> {
  let sets = parsedLibraries.get(t);
  if (!sets) {
    sets = new Map();
    parsedLibraries.set(t, sets);
  }
  return sets;
}

/** How many settings sets of parsed library files the process keeps for compiler `t` (for tests). */
export function retainedLibrarySets(t: TS): number {
  return parsedLibraries.get(t)?.size ?? 0;
}

/** The library's file names and how to recognise them, by the path TypeScript itself uses for each. */
export interface LibraryPaths {
  /** The name to serve library file `fileName` under (in the compiler's library directory, `/`-separated). */
  nameOf(fileName: string): string;
  /** TypeScript's normalised path of `fileName` (lower-cased on a case-insensitive file system). */
  pathOf(fileName: string): string;
}

/** Names and normalised paths for files of the library directory of `t` as a project under `root` sees them. */
export function libraryPaths(t: TS, root: string, options: TsNs.CompilerOptions): LibraryPaths {
  const internals = t as unknown as Internals;
  const canonical = internals.createGetCanonicalFileName(t.sys.useCaseSensitiveFileNames);
  // TypeScript names every file with `/`; node's win32 join would give `\` and names the compiler never asks for.
  const libDir = posix.dirname(t.getDefaultLibFilePath(options));
  return {
    nameOf: (fileName) => posix.join(libDir, fileName),
    pathOf: (fileName) => internals.toPath(fileName, root, canonical),
  };
}

/**
 * A project's own document registry for compiler `t`, which takes library files (`isLibrary`, given TypeScript's
 * normalised path) already parsed by any project of the process with the same settings key, and shares the ones it
 * parses. Without the compiler internal it falls back to a plain registry (correct, only slower to warm).
 */
export function sharedLibraryRegistry(t: TS, root: string, isLibrary: (path: string) => boolean): Registry {
  const internals = t as unknown as Internals;
  const useCase = t.sys.useCaseSensitiveFileNames;
  if (typeof internals.createDocumentRegistryInternal !== 'function') return t.createDocumentRegistry(useCase, root);
  const sets = librarySets(t);
  const cache: ExternalCache = {
    getDocument: (key, path) => {
      const set = sets.get(key);
      if (!set) return undefined;
      sets.delete(key); // to the most recently used end
      sets.set(key, set);
      return set.get(path);
    },
    setDocument: (key, path, sourceFile) => {
      if (!isLibrary(path)) return;
      let set = sets.get(key);
      if (!set) {
        set = new Map();
        sets.set(key, set);
        for (const oldest of sets.keys()) {
          if (sets.size <= SHARED_LIBRARY_SETTINGS) break;
          sets.delete(oldest);
        }
      }
      set.set(path, sourceFile);
    },
  };
  return internals.createDocumentRegistryInternal(useCase, root, undefined, cache);
}
