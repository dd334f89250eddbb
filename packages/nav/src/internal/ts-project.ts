import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import type { Workspace } from '@bough/workspace';
import { extensionOf, readWorkspaceText } from '@bough/workspace';
import type { ts as TsNs } from 'ts-morph';
import type { NavLimits } from '../limits.js';
import type { NavItem } from '../schema.js';
import { TS_EXT } from './source.js';
import { stampOf, stampsOf, type TreeListing, TreeSnapshot } from './tree-snapshot.js';
import { defaultCompilerOptions, loadProjectConfig, type ProjectConfig } from './ts-config.js';
import { type DeclarationFinder, type DeclarationSite, indexedDeclarationFinder } from './ts-declarations.js';
import { leanReferenceFinder, type ReferenceFinder } from './ts-references.js';

type TS = typeof TsNs;

interface ScriptState {
  version: number;
  text: string;
  /** Metadata stamp of the file when its text was read; a different stamp means read it again. */
  stamp: string;
  relative: string;
  lineStarts?: readonly number[];
}

/** Answers kept per project between edits; a few recent questions are what an agent repeats. */
const MAX_REMEMBERED_ANSWERS = 32;

/** Declarations of one name that a lookup follows; a name declared more often than this is not a useful query. */
const MAX_DECLARATIONS = 1_000;

function newlineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * A warm TypeScript language service over the TS/JS files of one workspace. Files are read only through the workspace;
 * `refresh()` takes the file set from a walk (repeated only when a directory changed) and re-reads files whose size or
 * mtime changed, so answers follow edits.
 */
export class TsProject {
  readonly #files = new Map<string, ScriptState>();
  readonly #libDir: string;
  readonly #libTexts = new Map<string, string | undefined>();
  readonly #service: TsNs.LanguageService;
  #options: TsNs.CompilerOptions;
  #configKey: string | undefined;
  /** The loaded configuration and the stamps of the files it was built from, to skip re-reading when unchanged. */
  #config: { result: ProjectConfig; stamps: Map<string, string> } | undefined;
  /** Bumped whenever the file set, a file's text or the options change; lets the service skip its own checks. */
  #projectVersion = 0;
  #fileNames: string[] = [];
  /** Answers computed at `#answersVersion`; any change to the project (version bump) makes them stale. */
  #answers = new Map<string, NavItem[]>();
  #answersVersion = -1;
  /** True when the last refresh hit the file cap. */
  truncated = false;
  /** Workspace-relative name of the configuration in force (tsconfig.json or jsconfig.json), if any. */
  configSource: string | undefined;

  readonly #findDeclarations: DeclarationFinder;
  readonly #findReferences: ReferenceFinder;
  /**
   * Module resolutions and package.json lookups kept across program versions. They depend only on the file set and the
   * options (the host serves nothing else), so the cache is dropped when either changes, never on a text edit.
   */
  #resolutions: TsNs.ModuleResolutionCache | undefined;

  /** `finders` replaces the lookups built from compiler internals; tests pass the public-API ones to compare. */
  constructor(t: TS, root: string, finders?: { declarations: DeclarationFinder; references: ReferenceFinder }) {
    this.#findDeclarations = finders?.declarations ?? indexedDeclarationFinder(t);
    this.#findReferences = finders?.references ?? leanReferenceFinder(t);
    this.#options = defaultCompilerOptions(t);
    this.#libDir = dirname(t.getDefaultLibFilePath(this.#options));
    const inLib = (p: string) => {
      const rel = relative(this.#libDir, p);
      return !rel.startsWith('..') && !isAbsolute(rel);
    };
    // Library files never change while the process runs; each is read from disk once.
    const readLib = (p: string) => {
      if (this.#libTexts.has(p)) return this.#libTexts.get(p);
      let text: string | undefined;
      try {
        text = inLib(p) ? readFileSync(p, 'utf8') : undefined;
      } catch {
        text = undefined;
      }
      this.#libTexts.set(p, text);
      return text;
    };
    const moduleHost: TsNs.ModuleResolutionHost = {
      fileExists: (p) => this.#files.has(p) || readLib(p) !== undefined,
      readFile: (p) => this.#files.get(p)?.text ?? readLib(p),
      useCaseSensitiveFileNames: t.sys.useCaseSensitiveFileNames,
    };
    const resolutions = () =>
      (this.#resolutions ??= t.createModuleResolutionCache(
        root,
        t.sys.useCaseSensitiveFileNames ? (f) => f : (f) => f.toLowerCase(),
        this.#options,
      ));
    // The service passes `getModuleResolutionCache` on to its programs (not in the public typings of this host).
    const host: TsNs.LanguageServiceHost & { getModuleResolutionCache(): TsNs.ModuleResolutionCache } = {
      getProjectVersion: () => String(this.#projectVersion),
      getScriptFileNames: () => this.#fileNames,
      getScriptVersion: (f) => String(this.#files.get(f)?.version ?? 0),
      getScriptSnapshot: (f) => {
        const text = this.#files.get(f)?.text ?? readLib(f);
        return text === undefined ? undefined : t.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => root,
      // Without this every path is lower-cased on each lookup, and names differing only in case would collide.
      useCaseSensitiveFileNames: () => t.sys.useCaseSensitiveFileNames,
      // Read on every query, so a changed tsconfig.json takes effect at the next refresh.
      getCompilationSettings: () => this.#options,
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
    this.#service = t.createLanguageService(host, t.createDocumentRegistry(t.sys.useCaseSensitiveFileNames, root));
  }

  /** Brings the compiler options (root tsconfig.json / jsconfig.json) and the file set up to date with the workspace. */
  async refresh(t: TS, workspace: Workspace, limits: NavLimits, tree?: TreeListing): Promise<void> {
    const config = await this.#loadConfig(t, workspace, limits);
    if (config.key !== this.#configKey) {
      this.#configKey = config.key;
      this.#options = config.options;
      this.#resolutions = undefined;
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
    if (setChanged) this.#resolutions = undefined;
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
    const state = this.#files.get(fileName);
    const source = sourceOf(fileName);
    if (!state || !source) return undefined;
    const pos = source.getLineAndCharacterOfPosition(start);
    // Lines split at '\n' only, as before; computed once per file text instead of once per item.
    state.lineStarts ??= newlineStarts(state.text);
    const from = state.lineStarts[pos.line];
    const next = from === undefined ? -1 : state.text.indexOf('\n', from);
    const lineText = (from === undefined ? '' : state.text.slice(from, next === -1 ? undefined : next))
      .trim()
      .slice(0, maxChars);
    return { kind, name, line: pos.line + 1, col: pos.character, signature: lineText, file: state.relative };
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

  /**
   * An answer is a pure function of the project's files and options, so while the project version stays the same a
   * repeated question gets the earlier answer (as fresh copies) instead of a new language-service query.
   */
  #remembered(key: string, compute: () => NavItem[]): NavItem[] {
    if (this.#answersVersion !== this.#projectVersion) {
      this.#answers.clear();
      this.#answersVersion = this.#projectVersion;
    }
    let items = this.#answers.get(key);
    if (!items) {
      items = compute();
      if (this.#answers.size >= MAX_REMEMBERED_ANSWERS) this.#answers.delete(this.#answers.keys().next().value!);
      this.#answers.set(key, items);
    }
    return items.map((item) => ({ ...item }));
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
