import type { Workspace } from '@bough/workspace';
import { readWorkspaceText } from '@bough/workspace';
import { extensionOf } from '@bough/workspace/internal';
import type { ts as TsNs } from '@ts-morph/common';
import type { NavLimits } from '../limits.js';
import type { NavItem } from '../schema.js';
import { AnswerMemo } from './answer-memo.js';
import { TS_EXT } from './source.js';
import { stampOf, stampsOf, type TreeListing, TreeSnapshot } from './tree-snapshot.js';
import { defaultCompilerOptions, loadProjectConfig, type ProjectConfig } from './ts-config.js';
import { type DeclarationFinder, type DeclarationSite, indexedDeclarationFinder } from './ts-declarations.js';
import { navItemAt, type ScriptState } from './ts-nav-item.js';
import { leanReferenceFinder, type ReferenceFinder } from './ts-references.js';
import { createProjectService, type ProjectService, type StandardLibrary } from './ts-service-host.js';

type TS = typeof TsNs;

/** Declarations of one name that a lookup follows; a name declared more often than this is not a useful query. */
const MAX_DECLARATIONS = 1_000;

/**
 * A warm TypeScript language service over the TS/JS files of one workspace. Files are read only through the workspace;
 * `refresh()` takes the file set from a walk (repeated only when a directory changed) and re-reads files whose size or
 * mtime changed, so answers follow edits.
 */
export class TsProject {
  readonly #files = new Map<string, ScriptState>();
  readonly #service: TsNs.LanguageService;
  readonly #host: ProjectService;
  #options: TsNs.CompilerOptions;
  #configKey: string | undefined;
  /** The loaded configuration and the stamps of the files it was built from, to skip re-reading when unchanged. */
  #config: { result: ProjectConfig; stamps: Map<string, string> } | undefined;
  /** Bumped whenever the file set, a file's text or the options change; lets the service skip its own checks. */
  #projectVersion = 0;
  #fileNames: string[] = [];
  readonly #answers = new AnswerMemo();
  /** True when the last refresh hit the file cap. */
  truncated = false;
  /** Workspace-relative name of the configuration in force (tsconfig.json or jsconfig.json), if any. */
  configSource: string | undefined;

  readonly #findDeclarations: DeclarationFinder;
  readonly #findReferences: ReferenceFinder;

  /**
   * `library` is the compiler's standard library (`getLibFiles()` of the module `t` comes from); `finders` replaces
   * the lookups built from compiler internals, tests pass the public-API ones to compare.
   */
  constructor(
    t: TS,
    root: string,
    library: StandardLibrary,
    finders?: { declarations: DeclarationFinder; references: ReferenceFinder },
  ) {
    this.#findDeclarations = finders?.declarations ?? indexedDeclarationFinder(t);
    this.#findReferences = finders?.references ?? leanReferenceFinder(t);
    this.#options = defaultCompilerOptions(t);
    this.#host = createProjectService(
      t,
      root,
      {
        files: this.#files,
        fileNames: () => this.#fileNames,
        projectVersion: () => this.#projectVersion,
        options: () => this.#options,
      },
      library,
    );
    this.#service = this.#host.service;
  }

  /** Brings the compiler options (root tsconfig.json / jsconfig.json) and the file set up to date with the workspace. */
  async refresh(t: TS, workspace: Workspace, limits: NavLimits, tree?: TreeListing): Promise<void> {
    const config = await this.#loadConfig(t, workspace, limits);
    if (config.key !== this.#configKey) {
      this.#configKey = config.key;
      this.#options = config.options;
      this.#host.dropResolutions();
      this.#projectVersion++;
    }
    this.configSource = config.source;
    const listing = tree ?? (await new TreeSnapshot(workspace.root).listing(workspace));
    const entries = listing.files.filter((f) => TS_EXT.has(extensionOf(f.relative)));
    this.truncated = entries.length > limits.maxProjectFiles;
    if (this.truncated) entries.length = limits.maxProjectFiles;
    // The listing may be older than this call, so every file is checked by its metadata before its text is trusted.
    const stamps = stampsOf(entries.map((entry) => entry.path));
    let changed = false;
    /** Whether a file was added or removed (not just edited): module resolutions may then differ. */
    let setChanged = false;
    const seen = new Set<string>();
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      seen.add(entry.path);
      const known = this.#files.get(entry.path);
      if (known && known.stamp === stamps[i]) continue;
      changed = true;
      const read = await readWorkspaceText(workspace, entry.path, { maxBytes: limits.maxFileBytes });
      if (!read.success) {
        if (known) setChanged = true;
        this.#files.delete(entry.path);
        continue;
      }
      if (!known) setChanged = true;
      this.#files.set(entry.path, {
        version: (known?.version ?? 0) + 1,
        text: read.text,
        stamp: stamps[i]!,
        relative: read.relative,
      });
    }
    for (const path of [...this.#files.keys()]) {
      if (seen.has(path)) continue;
      this.#files.delete(path);
      changed = setChanged = true;
    }
    if (setChanged) this.#host.dropResolutions();
    if (changed) {
      this.#projectVersion++;
      this.#fileNames = [...this.#files.keys()];
    }
  }

  /** The project configuration; read again through the workspace only when a file it came from changed. */
  async #loadConfig(t: TS, workspace: Workspace, limits: NavLimits): Promise<ProjectConfig> {
    const known = this.#config;
    if (known) {
      const paths = [...known.stamps.keys()];
      const now = stampsOf(paths);
      if (now.every((stamp, i) => stamp === known.stamps.get(paths[i]!))) return known.result;
    }
    const stamps = new Map<string, string>();
    // Each file is stamped just before it is read, so an edit made while the files are read is seen next time.
    const result = await loadProjectConfig(
      t,
      workspace,
      { maxBytes: limits.maxFileBytes, maxRounds: limits.maxConfigRounds },
      async (path) => {
        stamps.set(path, await stampOf(path));
      },
    );
    this.#config = { result, stamps };
    return result;
  }

  #item(
    sourceOf: (fileName: string) => TsNs.SourceFile | undefined,
    kind: string,
    name: string,
    fileName: string,
    start: number,
    maxChars: number,
  ): NavItem | undefined {
    return navItemAt(this.#files.get(fileName), sourceOf(fileName), kind, name, start, maxChars);
  }

  /** Releases the language service and the documents it holds; the project answers nothing afterwards. */
  dispose(): void {
    this.#service.dispose();
    this.#files.clear();
  }

  /** Declarations named exactly `symbol`, in program order (the order a project-wide navigate-to lists them). */
  #declarations(program: TsNs.Program, symbol: string): DeclarationSite[] {
    const found: DeclarationSite[] = [];
    for (const source of program.getSourceFiles()) {
      const state = this.#files.get(source.fileName);
      if (!state || source.isDeclarationFile) continue;
      for (const site of this.#findDeclarations(this.#service, program, source, symbol, state.text)) {
        found.push(site);
        if (found.length >= MAX_DECLARATIONS) return found;
      }
    }
    return found;
  }

  /** `program.getSourceFile`, remembered per name for one query (the program normalises the path on every call). */
  #sourcesOf(program: TsNs.Program): (fileName: string) => TsNs.SourceFile | undefined {
    const known = new Map<string, TsNs.SourceFile | undefined>();
    return (fileName) => {
      if (!known.has(fileName)) known.set(fileName, program.getSourceFile(fileName));
      return known.get(fileName);
    };
  }

  /** The program of the current project version (the service rebuilds it only after a change). */
  #program(): TsNs.Program | undefined {
    return this.#service.getProgram();
  }

  /** Declarations named `symbol` anywhere in the project (semantic workspace-symbol search). */
  definitions(symbol: string, maxChars: number): NavItem[] {
    return this.#remembered(`d\0${maxChars}\0${symbol}`, () => this.#definitions(symbol, maxChars));
  }

  /** Every reference the language service finds to declarations named `symbol`. */
  references(symbol: string, maxChars: number): NavItem[] {
    return this.#remembered(`r\0${maxChars}\0${symbol}`, () => this.#references(symbol, maxChars));
  }

  #remembered(key: string, compute: () => NavItem[]): NavItem[] {
    return this.#answers.get(this.#projectVersion, key, compute);
  }

  #definitions(symbol: string, maxChars: number): NavItem[] {
    const program = this.#program();
    if (!program) return [];
    const sourceOf = this.#sourcesOf(program);
    const items = this.#declarations(program, symbol).map((d) =>
      this.#item(sourceOf, d.kind, symbol, d.fileName, d.start, maxChars),
    );
    return items.filter((i): i is NavItem => i !== undefined);
  }

  #references(symbol: string, maxChars: number): NavItem[] {
    const program = this.#program();
    if (!program) return [];
    const sourceOf = this.#sourcesOf(program);
    /** Offsets already reported, per file: a reference found from two declarations is listed once. */
    const seen = new Map<string, Set<number>>();
    const items: NavItem[] = [];
    for (const decl of this.#declarations(program, symbol)) {
      for (const ref of this.#findReferences(this.#service, program, decl.fileName, decl.start)) {
        let offsets = seen.get(ref.fileName);
        if (!offsets) {
          offsets = new Set();
          seen.set(ref.fileName, offsets);
        }
        if (offsets.has(ref.start)) continue;
        offsets.add(ref.start);
        const kind = ref.isDefinition ? 'definition' : 'reference';
        const item = this.#item(sourceOf, kind, symbol, ref.fileName, ref.start, maxChars);
        if (item) items.push(item);
      }
    }
    return items.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || a.line - b.line || a.col - b.col);
  }
}
