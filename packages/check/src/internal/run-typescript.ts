import { join, resolve } from 'node:path';
import type { Workspace } from '@bough/workspace';
import type { ts } from '@ts-morph/common';
import type { CheckCache } from '../check-cache.js';
import type { CodeCheckLimits } from '../limits.js';
import type { CodeDiagnostic } from '../schema.js';
import type { CheckFile } from './collect-files.js';
import { type Compiler, loadCompiler, type TS } from './load-compiler.js';
import { countSkip, type EngineResult, emptyEngineResult } from './run-ruff.js';
import { SyncFileCache } from './sync-file-cache.js';

function defaultOptions(t: TS): ts.CompilerOptions {
  return {
    target: t.ScriptTarget.ES2022,
    module: t.ModuleKind.ESNext,
    moduleResolution: t.ModuleResolutionKind.Bundler,
    jsx: t.JsxEmit.Preserve,
    strict: true,
    allowJs: true,
    checkJs: false,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    // TypeScript 6 reports side-effect imports it cannot resolve (a stylesheet, say); without a tsconfig the project
    // is most likely bundled, where those are fine.
    noUncheckedSideEffectImports: false,
  };
}

function readOptions(t: TS, cache: SyncFileCache, root: string): { options: ts.CompilerOptions; source?: string } {
  const configPath = join(root, 'tsconfig.json');
  const text = cache.readFile(configPath);
  if (text === undefined) return { options: defaultOptions(t) };
  const parsedJson = t.parseConfigFileTextToJson(configPath, text);
  if (parsedJson.error) return { options: defaultOptions(t), source: 'tsconfig.json (unreadable JSON, defaults used)' };
  const host: ts.ParseConfigHost = {
    useCaseSensitiveFileNames: true,
    readDirectory: () => [],
    fileExists: (p) => cache.fileExists(p),
    readFile: (p) => cache.readFile(p),
  };
  const parsed = t.parseJsonConfigFileContent(parsedJson.config, host, root, undefined, configPath);
  return { options: withProjectDefaults(parsed.options, projectTypeScriptMajor(cache, root)), source: 'tsconfig.json' };
}

/** The major version of the `typescript` the project installs at its root, from its package.json (never run). */
function projectTypeScriptMajor(cache: SyncFileCache, root: string): number | undefined {
  const text = cache.readFile(join(root, 'node_modules', 'typescript', 'package.json'));
  if (text === undefined) return undefined;
  try {
    const major = Number.parseInt(String((JSON.parse(text) as { version?: unknown }).version), 10);
    return Number.isSafeInteger(major) ? major : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a tsconfig is silent, TypeScript 6 turns `strict` and `noUncheckedSideEffectImports` on; TypeScript 5 left
 * them off. Unless the project itself installs TypeScript 6 or later, the silent options keep the TypeScript 5
 * meaning, so `code_check` reports what the project's own `tsc` reports rather than a stricter set.
 */
function withProjectDefaults(options: ts.CompilerOptions, major: number | undefined): ts.CompilerOptions {
  if (major !== undefined && major >= 6) return options;
  return {
    ...options,
    strict: options.strict ?? false,
    noUncheckedSideEffectImports: options.noUncheckedSideEffectImports ?? false,
  };
}

function toDiagnostic(t: TS, d: ts.Diagnostic, relative: string, maxChars: number): CodeDiagnostic | undefined {
  if (!d.file || d.start === undefined) return undefined;
  const start = d.file.getLineAndCharacterOfPosition(d.start);
  const end = d.file.getLineAndCharacterOfPosition(d.start + (d.length ?? 0));
  const category = d.category;
  return {
    file: relative,
    line: start.line + 1,
    col: start.character + 1,
    end_line: end.line + 1,
    end_col: end.character + 1,
    severity:
      category === t.DiagnosticCategory.Error
        ? 'error'
        : category === t.DiagnosticCategory.Warning
          ? 'warning'
          : 'info',
    code: `TS${d.code}`,
    message: t.flattenDiagnosticMessageText(d.messageText, '\n').slice(0, maxChars),
    source: 'typescript',
    fixable: false,
  };
}

// TS5101/TS5107: an option (or option value) that still works in this TypeScript but stops working in the next major.
// They are configuration errors to tsc; here the files are checked as before and the summary names the options.
const DEPRECATION_CODES = new Set([5101, 5107]);

function deprecatedOptions(program: ts.Program): string[] {
  const names = new Set<string>();
  for (const d of program.getOptionsDiagnostics()) {
    if (!DEPRECATION_CODES.has(d.code)) continue;
    const text = typeof d.messageText === 'string' ? d.messageText : d.messageText.messageText;
    const name = /^Option '([^']+)'/.exec(text)?.[1];
    if (name) names.add(name);
  }
  return [...names];
}

/**
 * Type-checks the requested TS/JS files with the compiler API: the workspace's root tsconfig.json (and what it
 * extends) gives the options; imports are loaded through the workspace in rounds; only the requested files' syntactic
 * and semantic diagnostics are reported. Parsed trees and the last program come from `reuse`, so a tool that checks
 * again does not parse the standard library or unchanged files a second time.
 */
export async function runTypeScript(
  workspace: Workspace,
  files: readonly CheckFile[],
  limits: CodeCheckLimits,
  deadline: number,
  reuse: CheckCache,
): Promise<EngineResult> {
  const result = emptyEngineResult();
  let compiler: Compiler;
  try {
    compiler = await loadCompiler();
  } catch (error) {
    return { ...result, unavailable: `The TypeScript compiler could not be loaded: ${(error as Error).message}` };
  }
  const { t, libDir } = compiler;
  const cache = new SyncFileCache(workspace, compiler, {
    maxBytes: limits.maxFileBytes,
    maxFiles: limits.maxProgramFiles,
  });
  const root = workspace.root;
  // The configuration (tsconfig.json and what it extends) is loaded first, so every program round below is built
  // with the same options and the cached trees stay valid for all of them.
  let config = readOptions(t, cache, root);
  for (let round = 0; cache.hasPending && round < limits.maxResolveRounds; round++) {
    await cache.loadPending();
    config = readOptions(t, cache, root);
  }
  const configSource = config.source;
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, allowJs: true };
  const rootNames = files.map((f) => f.path);
  const build = reuse.begin(root, options);
  const host: ts.CompilerHost = {
    getSourceFile: (fileName, settings) => {
      if (cache.isLibrary(resolve(fileName))) {
        return reuse.libraryFile(t, options, fileName, settings, () => cache.readFile(fileName));
      }
      const text = cache.readFile(fileName);
      return text === undefined ? undefined : reuse.workspaceFile(t, build, fileName, settings, text);
    },
    getDefaultLibFileName: (o) => t.getDefaultLibFilePath(o),
    getDefaultLibLocation: () => libDir,
    writeFile: () => undefined,
    getCurrentDirectory: () => root,
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (p) => cache.fileExists(p),
    readFile: (p) => cache.readFile(p),
    directoryExists: (p) => cache.directoryExists(p),
    getDirectories: () => [],
    realpath: (p) => p,
    // Each round may have loaded files an earlier round could not see, so imports that failed must be resolved again;
    // TypeScript still keeps every import that did resolve, and every unchanged tree.
    hasInvalidatedResolutions: () => true,
  };
  // Rounds of one call share their program (oldProgram); a later call starts afresh because the workspace may have
  // changed in between, and only reuses parsed trees whose text it has just read again through the gate.
  let program: ts.Program | undefined;
  for (let round = 0; round <= limits.maxResolveRounds; round++) {
    program = t.createProgram({ rootNames, options, host, ...(program ? { oldProgram: program } : {}) });
    if (!cache.hasPending || round === limits.maxResolveRounds || Date.now() >= deadline) break;
    await cache.loadPending();
  }
  if (program) reuse.finish(build, program);
  if (configSource) result.notes.push(`TypeScript options from ${configSource}.`);
  const deprecated = program ? deprecatedOptions(program) : [];
  if (deprecated.length > 0)
    result.notes.push(`Options TypeScript ${t.versionMajorMinor} deprecates, still applied: ${deprecated.join(', ')}.`);
  if (cache.capped)
    result.notes.push(
      `Only ${limits.maxProgramFiles} imported file(s) were loaded; some imports may show as unresolved.`,
    );
  for (const file of files) {
    const source = program?.getSourceFile(file.path);
    if (!program || !source) {
      if (!cache.attempted(file.path)) {
        result.notReached++; // the budget ended the loading rounds before this file was read
        continue;
      }
      const why = cache.failureOf(file.path);
      countSkip(result.skipped, why);
      result.notes.push(`${file.relative} skipped: it could not be read${why ? ` (${why})` : ''}.`);
      continue;
    }
    if (Date.now() >= deadline) {
      result.notReached++;
      continue;
    }
    result.filesChecked++;
    const all = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    for (const d of all) {
      const diagnostic = toDiagnostic(t, d, file.relative, limits.maxMessageChars);
      if (diagnostic) result.diagnostics.push(diagnostic);
    }
  }
  return result;
}
