import { join, resolve } from 'node:path';
import type { Workspace } from '@bough/workspace';
import { readWorkspaceText } from '@bough/workspace';
import type { ts as TsNs } from '@ts-morph/common';

type TS = typeof TsNs;

/** Compiler options for the language service and where they came from. */
export interface ProjectConfig {
  readonly options: TsNs.CompilerOptions;
  /** Workspace-relative name of the configuration used, when there was one. */
  readonly source?: string;
  /** Changes whenever the effective options change. */
  readonly key: string;
}

/** Configuration files looked for at the workspace root, in order. */
const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'] as const;

/** Used when the workspace has no configuration: what a modern bundled TS/JS project expects. */
export function defaultCompilerOptions(t: TS): TsNs.CompilerOptions {
  return {
    target: t.ScriptTarget.ES2022,
    module: t.ModuleKind.ESNext,
    moduleResolution: t.ModuleResolutionKind.Bundler,
    jsx: t.JsxEmit.Preserve,
    allowJs: true,
    noEmit: true,
  };
}

function finish(options: TsNs.CompilerOptions, source?: string): ProjectConfig {
  // JS files are always part of the navigated project and nothing is ever emitted.
  const effective = { ...options, allowJs: true, noEmit: true };
  return { options: effective, key: JSON.stringify(effective), ...(source ? { source } : {}) };
}

/**
 * Reads the root tsconfig.json (or jsconfig.json) and every file its `extends` chain names, all through the workspace
 * gate: the compiler's synchronous config parser is fed from files loaded beforehand, and a file it asks for that is
 * not loaded yet is read and the parse repeated. Refused or missing files count as absent, so a chain that points
 * outside the workspace simply loses that link. `paths`, `baseUrl`, `jsx`, module resolution and the rest apply.
 * `beforeRead` is told each path just before it is read (callers use it to notice later changes).
 */
export async function loadProjectConfig(
  t: TS,
  workspace: Workspace,
  limits: { maxBytes: number; maxRounds: number },
  beforeRead?: (path: string) => Promise<void>,
): Promise<ProjectConfig> {
  const { maxBytes, maxRounds } = limits;
  const root = workspace.root;
  const texts = new Map<string, string | null>();
  const load = async (path: string): Promise<void> => {
    await beforeRead?.(path);
    const read = await readWorkspaceText(workspace, path, { maxBytes }).catch(() => undefined);
    texts.set(path, read?.success ? read.text : null);
  };
  let configPath: string | undefined;
  for (const name of CONFIG_NAMES) {
    const path = join(root, name);
    await load(path);
    if (texts.get(path) != null) {
      configPath = path;
      break;
    }
  }
  if (!configPath) return finish(defaultCompilerOptions(t));
  const name = configPath.slice(root.length + 1);
  const parsedJson = t.parseConfigFileTextToJson(configPath, texts.get(configPath) ?? '');
  if (parsedJson.error) return finish(defaultCompilerOptions(t));

  let options: TsNs.CompilerOptions = {};
  for (let round = 0; round <= maxRounds; round++) {
    const pending = new Set<string>();
    const lookup = (path: string): string | undefined => {
      const abs = resolve(root, path);
      if (!texts.has(abs)) pending.add(abs);
      return texts.get(abs) ?? undefined;
    };
    const host: TsNs.ParseConfigHost = {
      useCaseSensitiveFileNames: true,
      readDirectory: () => [], // the file set comes from the workspace walk, not from include/files
      fileExists: (path) => lookup(path) !== undefined,
      readFile: lookup,
    };
    options = t.parseJsonConfigFileContent(parsedJson.config, host, root, undefined, configPath).options;
    if (pending.size === 0) break;
    for (const path of pending) await load(path);
  }
  return finish(options, name);
}
