import type { Workspace } from '@bough/workspace';
import { readWorkspaceText } from '@bough/workspace';
import { globToRegExp } from '@bough/workspace/internal';

/** Ruff settings found in the workspace, in the shape the wasm `Workspace` accepts, plus per-file ignores. */
export interface RuffConfig {
  /** Where the settings came from (relative), or undefined for ruff's defaults. */
  readonly source?: string;
  /** Options handed to the ruff wasm Workspace. */
  readonly options: Record<string, unknown>;
  /** Options with only the core keys, used when the full set is refused. */
  readonly coreOptions: Record<string, unknown>;
  /** Glob → rule prefixes to drop for matching files (applied by us: the wasm checker has no file names). */
  readonly perFileIgnores: ReadonlyArray<{ glob: RegExp; codes: readonly string[] }>;
  /** Problems met while reading the configuration. */
  readonly notes: readonly string[];
}

const TOP_LEVEL = ['line-length', 'indent-width', 'target-version', 'preview', 'builtins'];
const LEGACY_LINT = [
  'select',
  'ignore',
  'extend-select',
  'extend-ignore',
  'fixable',
  'unfixable',
  'dummy-variable-rgx',
];
const PATH_KEYS = ['per-file-ignores', 'extend-per-file-ignores', 'exclude', 'extend-exclude'];
const CORE_LINT = ['select', 'ignore', 'extend-select'];

/** Ruff's command-line default rule set; the wasm build's own default differs (it adds import sorting). */
export const RUFF_DEFAULT_SELECT: readonly string[] = ['E4', 'E7', 'E9', 'F'];

/** Settings that make the wasm checker behave like `ruff check` with no configuration. */
export function ruffDefaults(): Record<string, unknown> {
  return { lint: { select: [...RUFF_DEFAULT_SELECT] } };
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function build(table: Record<string, unknown>, source: string, notes: string[]): RuffConfig {
  const options: Record<string, unknown> = {};
  for (const key of TOP_LEVEL) if (key in table) options[key] = table[key];
  const lint: Record<string, unknown> = {};
  for (const key of LEGACY_LINT) if (key in table) lint[key] = table[key];
  const lintTable = isTable(table.lint) ? table.lint : {};
  for (const [key, value] of Object.entries(lintTable)) if (!PATH_KEYS.includes(key)) lint[key] = value;
  lint.select ??= [...RUFF_DEFAULT_SELECT];
  options.lint = lint;
  const core: Record<string, unknown> = {};
  for (const key of ['line-length', 'target-version']) if (key in options) core[key] = options[key];
  core.lint = Object.fromEntries(CORE_LINT.filter((k) => k in lint).map((k) => [k, lint[k]]));
  const perFile: Array<{ glob: RegExp; codes: string[] }> = [];
  for (const holder of [table, lintTable]) {
    for (const key of ['per-file-ignores', 'extend-per-file-ignores']) {
      const entries = holder[key];
      if (!isTable(entries)) continue;
      for (const [glob, codes] of Object.entries(entries)) {
        if (Array.isArray(codes)) perFile.push({ glob: globToRegExp(glob), codes: codes.map(String) });
      }
    }
  }
  return { source, options, coreOptions: core, perFileIgnores: perFile, notes };
}

/**
 * Finds the ruff configuration at the workspace root, in ruff's order: `.ruff.toml`, `ruff.toml`, then
 * `pyproject.toml` when it has a `[tool.ruff]` table. Nested configuration files are not consulted.
 */
export async function loadRuffConfig(workspace: Workspace, maxBytes: number): Promise<RuffConfig> {
  const { parse } = await import('smol-toml');
  const notes: string[] = [];
  for (const name of ['.ruff.toml', 'ruff.toml', 'pyproject.toml']) {
    const found = await workspace.resolve(name, 'read');
    if (!found.success || found.kind !== 'file') continue;
    const read = await readWorkspaceText(workspace, name, { maxBytes });
    if ('error_code' in read) {
      notes.push(`${name} could not be read (${read.error_code}); ruff defaults used.`);
      continue;
    }
    let doc: Record<string, unknown>;
    try {
      doc = parse(read.text) as Record<string, unknown>;
    } catch (error) {
      notes.push(`${name} is not valid TOML (${(error as Error).message.split('\n')[0]}); ruff defaults used.`);
      continue;
    }
    if (name === 'pyproject.toml') {
      const tool = isTable(doc.tool) ? doc.tool : {};
      if (!isTable(tool.ruff)) continue;
      return build(tool.ruff, name, notes);
    }
    return build(doc, name, notes);
  }
  return { options: ruffDefaults(), coreOptions: ruffDefaults(), perFileIgnores: [], notes };
}
