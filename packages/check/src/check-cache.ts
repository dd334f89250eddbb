import { resolve } from 'node:path';
import type { ts } from '@ts-morph/common';
import type { TS } from './internal/load-compiler.js';

type ParseSettings = ts.ScriptTarget | ts.CreateSourceFileOptions;

/** How many files a cache parsed and how many it answered from memory; lets callers and tests see reuse. */
export interface CheckCacheStats {
  /** Source files parsed from text (standard library and workspace). */
  readonly parsed: number;
  /** Requests for a source file answered with a tree parsed by an earlier program. */
  readonly reused: number;
  /** Standard-library files currently held. */
  readonly libraryFiles: number;
}

interface WorkspaceEntry {
  readonly text: string;
  readonly file: ts.SourceFile;
  /** Options the tree was parsed and bound under; it is only handed to a build with the same options. */
  readonly optionsKey: string;
}

/** One program build of one call: the root and the options it uses. Returned by {@link CheckCache.begin}. */
export interface CheckBuild {
  readonly root: string;
  readonly optionsKey: string;
}

interface RootState {
  readonly root: string;
  optionsKey?: string;
  readonly files: Map<string, WorkspaceEntry>;
}

// The same text parsed for another target, module format or JSDoc mode is a different tree.
function parseKey(fileName: string, settings: ParseSettings): string {
  if (typeof settings !== 'object') return `${fileName}\0${settings}`;
  return `${fileName}\0${settings.languageVersion}\0${settings.impliedNodeFormat ?? ''}\0${settings.jsDocParsingMode ?? ''}`;
}

// Options the binder reads while walking a declaration file (whether const enums are kept decides if a namespace
// counts as instantiated); trees bound under other values are not shared. Strictness never applies to .d.ts files.
function bindingKey(options: ts.CompilerOptions): string {
  const { preserveConstEnums, isolatedModules, verbatimModuleSyntax } = options;
  return JSON.stringify([preserveConstEnums, isolatedModules, verbatimModuleSyntax]);
}

/**
 * Parsed TypeScript state that one code_check tool keeps between calls, so the standard library (megabytes of
 * declarations) is parsed once per tool and unchanged workspace files are not parsed again. Workspace text is still
 * read through the workspace gate on every call; a cached tree is only reused when the freshly read text is identical.
 * Create one per tool instance (the tool factory does); it is never shared process-wide.
 */
export class CheckCache {
  readonly #library = new Map<string, ts.SourceFile>();
  // Workspace trees of one root only: a tool is bound to one root, and a cache shared across roots stays bounded.
  #current: RootState | undefined;
  #parsed = 0;
  #reused = 0;

  /** Counters of parses and reuses since the cache was made. */
  get stats(): CheckCacheStats {
    return { parsed: this.#parsed, reused: this.#reused, libraryFiles: this.#library.size };
  }

  #root(root: string): RootState {
    if (this.#current?.root !== root) this.#current = { root, files: new Map() };
    return this.#current;
  }

  /**
   * Starts a program build for a workspace root under the given options. When the options differ from the previous
   * build's, the cached workspace trees are dropped (how a file is parsed and bound depends on them); library trees
   * stay, keyed by target and module format.
   */
  begin(root: string, options: ts.CompilerOptions): CheckBuild {
    const state = this.#root(root);
    const optionsKey = JSON.stringify(options);
    if (state.optionsKey !== optionsKey) {
      state.optionsKey = optionsKey;
      state.files.clear();
    }
    return { root, optionsKey };
  }

  /** A standard-library file, parsed on first use for these options and settings; `read` is called only then. */
  libraryFile(
    t: TS,
    options: ts.CompilerOptions,
    fileName: string,
    settings: ParseSettings,
    read: () => string | undefined,
  ): ts.SourceFile | undefined {
    const key = `${parseKey(resolve(fileName), settings)}\0${bindingKey(options)}`;
    const known = this.#library.get(key);
    if (known) {
      this.#reused++;
      return known;
    }
    const text = read();
    if (text === undefined) return undefined;
    const file = t.createSourceFile(fileName, text, settings, true);
    this.#parsed++;
    this.#library.set(key, file);
    return file;
  }

  /** A workspace file for freshly read `text`: the earlier tree when the text and options match, a new parse otherwise. */
  workspaceFile(t: TS, build: CheckBuild, fileName: string, settings: ParseSettings, text: string): ts.SourceFile {
    const state = this.#root(build.root);
    const key = parseKey(resolve(fileName), settings);
    const known = state.files.get(key);
    if (known && known.text === text && known.optionsKey === build.optionsKey) {
      this.#reused++;
      return known.file;
    }
    const file = t.createSourceFile(fileName, text, settings, true);
    this.#parsed++;
    // A concurrent call under other options may own the cache now; its trees are not replaced by this build's.
    if (state.optionsKey === build.optionsKey) state.files.set(key, { text, file, optionsKey: build.optionsKey });
    return file;
  }

  /** Ends a build: keeps only the workspace trees the final program uses, so the cache follows the project's size. */
  finish(build: CheckBuild, program: ts.Program): void {
    const state = this.#root(build.root);
    if (state.optionsKey !== build.optionsKey) return; // a concurrent call with other options took over
    const used = new Set(program.getSourceFiles());
    for (const [key, entry] of state.files) if (!used.has(entry.file)) state.files.delete(key);
  }
}
