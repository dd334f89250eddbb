import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import type { Workspace } from '@branchkit/workspace';
import type { ts as TsNs } from 'ts-morph';
import type { NavLimits } from '../limits.js';
import type { NavItem } from '../schema.js';
import { listSources, readSource, TS_EXT } from './source.js';
import { defaultCompilerOptions, loadProjectConfig } from './ts-config.js';

type TS = typeof TsNs;

interface ScriptState {
  version: number;
  text: string;
  size: number;
  mtimeMs: number;
  relative: string;
}

/**
 * A warm TypeScript language service over the TS/JS files of one workspace. Files are read only through the workspace;
 * `refresh()` re-walks the tree and re-reads files whose size or mtime changed, so answers follow edits.
 */
export class TsProject {
  readonly #files = new Map<string, ScriptState>();
  readonly #libDir: string;
  readonly #service: TsNs.LanguageService;
  #options: TsNs.CompilerOptions;
  #configKey: string | undefined;
  /** True when the last refresh hit the file cap. */
  truncated = false;
  /** Workspace-relative name of the configuration in force (tsconfig.json or jsconfig.json), if any. */
  configSource: string | undefined;

  constructor(t: TS, root: string) {
    this.#options = defaultCompilerOptions(t);
    this.#libDir = dirname(t.getDefaultLibFilePath(this.#options));
    const inLib = (p: string) => {
      const rel = relative(this.#libDir, p);
      return !rel.startsWith('..') && !isAbsolute(rel);
    };
    const readLib = (p: string) => {
      try {
        return inLib(p) ? readFileSync(p, 'utf8') : undefined;
      } catch {
        return undefined;
      }
    };
    const host: TsNs.LanguageServiceHost = {
      getScriptFileNames: () => [...this.#files.keys()],
      getScriptVersion: (f) => String(this.#files.get(f)?.version ?? 0),
      getScriptSnapshot: (f) => {
        const text = this.#files.get(f)?.text ?? readLib(f);
        return text === undefined ? undefined : t.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => root,
      // Read on every query, so a changed tsconfig.json takes effect at the next refresh.
      getCompilationSettings: () => this.#options,
      getDefaultLibFileName: (o) => t.getDefaultLibFilePath(o),
      fileExists: (p) => this.#files.has(p) || readLib(p) !== undefined,
      readFile: (p) => this.#files.get(p)?.text ?? readLib(p),
    };
    this.#service = t.createLanguageService(host, t.createDocumentRegistry());
  }

  /** Brings the compiler options (root tsconfig.json / jsconfig.json) and the file set up to date with the workspace. */
  async refresh(t: TS, workspace: Workspace, limits: NavLimits): Promise<void> {
    const config = await loadProjectConfig(t, workspace, {
      maxBytes: limits.maxFileBytes,
      maxRounds: limits.maxConfigRounds,
    });
    if (config.key !== this.#configKey) {
      this.#configKey = config.key;
      this.#options = config.options;
    }
    this.configSource = config.source;
    const listed = await listSources(workspace, '.', TS_EXT, limits.maxProjectFiles);
    this.truncated = listed.truncated;
    const seen = new Set<string>();
    for (const entry of listed.files) {
      seen.add(entry.path);
      const known = this.#files.get(entry.path);
      if (known && known.size === entry.size && known.mtimeMs === entry.mtimeMs) continue;
      const read = await readSource(workspace, entry.path, limits.maxFileBytes);
      if (!read.ok) {
        this.#files.delete(entry.path);
        continue;
      }
      const version = (known?.version ?? 0) + 1;
      this.#files.set(entry.path, {
        version,
        text: read.text,
        size: entry.size,
        mtimeMs: entry.mtimeMs,
        relative: read.relative,
      });
    }
    for (const path of [...this.#files.keys()]) if (!seen.has(path)) this.#files.delete(path);
  }

  #item(kind: string, name: string, fileName: string, start: number, maxChars: number): NavItem | undefined {
    const state = this.#files.get(fileName);
    const source = this.#service.getProgram()?.getSourceFile(fileName);
    if (!state || !source) return undefined;
    const pos = source.getLineAndCharacterOfPosition(start);
    const lineText = (state.text.split('\n')[pos.line] ?? '').trim().slice(0, maxChars);
    return { kind, name, line: pos.line + 1, col: pos.character, signature: lineText, file: state.relative };
  }

  #declarations(symbol: string): TsNs.NavigateToItem[] {
    return this.#service
      .getNavigateToItems(symbol, 1_000, undefined, true)
      .filter((item) => item.name === symbol && this.#files.has(item.fileName));
  }

  /** Declarations named `symbol` anywhere in the project (semantic workspace-symbol search). */
  definitions(symbol: string, maxChars: number): NavItem[] {
    const items = this.#declarations(symbol).map((d) =>
      this.#item(d.kind, symbol, d.fileName, d.textSpan.start, maxChars),
    );
    return items.filter((i): i is NavItem => i !== undefined);
  }

  /** Every reference the language service finds to declarations named `symbol`. */
  references(symbol: string, maxChars: number): NavItem[] {
    const seen = new Set<string>();
    const items: NavItem[] = [];
    for (const decl of this.#declarations(symbol)) {
      for (const group of this.#service.findReferences(decl.fileName, decl.textSpan.start) ?? []) {
        for (const ref of group.references) {
          const key = `${ref.fileName}:${ref.textSpan.start}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const kind = ref.isDefinition ? 'definition' : 'reference';
          const item = this.#item(kind, symbol, ref.fileName, ref.textSpan.start, maxChars);
          if (item) items.push(item);
        }
      }
    }
    return items.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || a.line - b.line || a.col - b.col);
  }
}

/** Warm TypeScript projects keyed by workspace root; owned by one tool instance, never shared globally. */
export class NavCache {
  readonly #projects = new Map<string, TsProject>();

  /** The project for a root, created on first use. */
  project(t: TS, root: string): TsProject {
    let project = this.#projects.get(root);
    if (!project) {
      project = new TsProject(t, root);
      this.#projects.set(root, project);
    }
    return project;
  }
}
