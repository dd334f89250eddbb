import type { ts as TsNs } from '@ts-morph/common';

type TS = typeof TsNs;
type Registry = TsNs.DocumentRegistry;

/**
 * Parsed standard-library files, one registry per compiler for the whole process. Those files are the compiler's own
 * constant texts (lib.dom.d.ts alone is about 2 MB), so a parse made for one project serves every later one: without
 * this each new project (a new tool, a new workspace) parsed and bound them again, most of a cold start. A cache of
 * values that never change, not state a call can observe; keyed weakly, so it goes with the compiler.
 */
const parsedLibraries = new WeakMap<TS, Registry>();

/**
 * A document registry that keeps a project's own files in `own` and takes the library files (`isLibrary`) from the
 * registry shared by every project of compiler `t`.
 */
export function withSharedLibrary(t: TS, own: Registry, isLibrary: (fileName: string) => boolean): Registry {
  let shared = parsedLibraries.get(t);
  if (!shared) {
    shared = t.createDocumentRegistry(t.sys.useCaseSensitiveFileNames);
    parsedLibraries.set(t, shared);
  }
  const library = shared;
  const pick = (fileName: string) => (isLibrary(fileName) ? library : own);
  // Every routed method takes the file's name or path first; the rest goes on unchanged.
  const route = <K extends keyof Registry>(name: K) =>
    ((first: string, ...rest: unknown[]) =>
      (pick(first)[name] as (...args: unknown[]) => unknown).call(pick(first), first, ...rest)) as Registry[K];
  return {
    ...own,
    acquireDocument: route('acquireDocument'),
    acquireDocumentWithKey: route('acquireDocumentWithKey'),
    updateDocument: route('updateDocument'),
    updateDocumentWithKey: route('updateDocumentWithKey'),
    releaseDocument: route('releaseDocument'),
    releaseDocumentWithKey: route('releaseDocumentWithKey'),
  };
}
