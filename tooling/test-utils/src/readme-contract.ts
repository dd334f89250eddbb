import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatBytes, formatCount } from '@bough/core';
import { describe, expect, it, vi } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/**
 * Failure codes passed literally to a failure builder in a package's sources (calls split over lines included).
 * Only for packages that have no code table yet; a package with a table passes `table` to
 * {@link describeReadmeContract} instead, and the compiler checks its sources against that table.
 */
export function returnedCodes(srcDir: string): string[] {
  const found = new Set<string>();
  for (const text of sources(srcDir)) {
    for (const match of text.matchAll(
      /(?:workspaceFailure|processFailure|failure|Refusal|refused|fail)\(\s*'([a-z_]+)'/g,
    )) {
      found.add(match[1] as string);
    }
  }
  return [...found].sort();
}

/**
 * The codes a README's `## Failure codes` section lists: every backticked snake_case word in the first cell of its
 * table rows below the header (a cell may name several codes that share one explanation).
 */
export function documentedCodes(readme: string): string[] {
  const start = readme.search(/^## Failure codes/m);
  if (start < 0) return [];
  const rest = readme.slice(start + 3);
  const next = rest.search(/^## /m);
  const section = next < 0 ? rest : rest.slice(0, next);
  const found = new Set<string>();
  let body = false; // header rows (above the `|---|` line) name columns, not codes
  for (const line of section.split('\n')) {
    const cell = /^\|([^|]*)\|/.exec(line)?.[1];
    if (cell === undefined) {
      body = false;
      continue;
    }
    if (/^\s*:?-{3,}/.test(cell)) {
      body = true;
      continue;
    }
    if (!body) continue;
    for (const match of cell.matchAll(/`([a-z][a-z0-9_]*)`/g)) found.add(match[1] as string);
  }
  return [...found].sort();
}

/** A limits argument: a plain object of defaults, or a table made by core's `defineLimits` (its `defaults`). */
function limitDefaults(limits: object): Readonly<Record<string, unknown>> {
  const table = limits as { defaults?: unknown; resolve?: unknown };
  if (typeof table.resolve === 'function' && typeof table.defaults === 'object' && table.defaults !== null) {
    return table.defaults as Record<string, unknown>;
  }
  return limits as Record<string, unknown>;
}

/** The text of the first section whose heading starts with `heading`, up to the next heading of that level or above. */
export function readmeSection(readme: string, heading: string): string | undefined {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  if (start < 0) return undefined;
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const stop = lines.findIndex((line, i) => i > start && new RegExp(`^#{1,${level}} `).test(line));
  return lines.slice(start + 1, stop < 0 ? undefined : stop).join('\n');
}

/** The first ```ts block of a README section (see {@link readmeSection}), e.g. the example a test runs as written. */
export function readmeCodeBlock(readme: string, heading: string): string | undefined {
  const section = readmeSection(readme, heading);
  return section === undefined ? undefined : /^```ts\n([\s\S]*?)^```/m.exec(section)?.[1];
}

/** The backticked names in the first column of every table row of a section (header and rule rows skipped). */
export function firstColumnNames(section: string): string[] {
  const names: string[] = [];
  let inTable = false;
  for (const line of section.split('\n')) {
    const row = line.startsWith('|');
    // A table's first row names its columns (`| limit | default |`); it is not an entry.
    const header = row && !inTable;
    inTable = row;
    if (!row || header || /^\|[\s|:-]+\|?$/.test(line)) continue;
    const cell = line.split('|')[1] ?? '';
    for (const match of cell.matchAll(/`([A-Za-z][A-Za-z0-9_]*)`/g)) names.push(match[1] as string);
  }
  return names;
}

/** True when a limits row states the default in one of the ways READMEs write numbers (`6,000`, `64 MiB`, `0.7`). */
function statesValue(row: string, value: unknown): boolean {
  if (typeof value !== 'number') return false;
  return [formatCount(value), formatBytes(value), String(value)].some((text) => row.includes(text));
}

/** Options of {@link describeReadmeContract}. */
export interface ReadmeContractOptions {
  /**
   * The package's exported code table (core `defineErrorCodes`; several may be concatenated). With it the README's
   * `## Failure codes` table must list exactly these codes — none missing, none extra — and the sources are not
   * scanned. `'none'` is for a package that returns no failure values of its own (the CLI answers with exit codes):
   * then no code test runs.
   */
  readonly table?: readonly string[] | 'none';
  /** Legacy: codes added to those found by scanning the sources (packages without a table yet). */
  readonly codes?: readonly string[];
  /**
   * Check the `## Limits` section as a table: it lists exactly the limit keys (none missing, none extra), each on a
   * row that states its default. Without it, every key only has to appear somewhere in the README as `code`.
   */
  readonly limitsTable?: boolean;
}

/**
 * Keeps a package README honest: its failure codes (exactly the exported table, when `table` is given) and every key
 * of its limits (as exactly the rows of its limits table, with `limitsTable`) appear in the README as `code`.
 * `srcDir` is the package's src directory (`import.meta.dirname` of the test); `limits` is the defaults object or the
 * `defineLimits` table.
 */
export function describeReadmeContract(srcDir: string, limits: object, options: ReadmeContractOptions = {}): void {
  const readme = readFileSync(join(srcDir, '..', 'README.md'), 'utf8');
  const defaults = limitDefaults(limits);
  describe('README', () => {
    const given = options.table;
    if (given === 'none') {
      // No failure values, so nothing to hold the README to.
    } else if (given !== undefined) {
      const table = [...new Set(given)].sort();
      it('lists exactly the exported failure-code table', () => {
        expect(table.length).toBeGreaterThan(0);
        expect(documentedCodes(readme)).toEqual(table);
      });
    } else {
      it('documents every error_code the sources return', () => {
        const codes = [...new Set([...returnedCodes(srcDir), ...(options.codes ?? [])])].sort();
        expect(codes.length).toBeGreaterThan(0);
        expect(codes.filter((code) => !readme.includes(`\`${code}\``))).toEqual([]);
      });
    }

    const keys = Object.keys(defaults);
    if (!options.limitsTable) {
      it('documents every limit', () => {
        expect(keys.filter((key) => !readme.includes(`\`${key}\``))).toEqual([]);
      });
      return;
    }
    it('lists exactly the limits, each with its default', () => {
      const section = readmeSection(readme, '## Limits');
      expect(section, 'a limits section').toBeDefined();
      const rows = (section ?? '').split('\n').filter((line) => line.startsWith('|'));
      const listed = new Set(firstColumnNames(section ?? ''));
      expect(keys.filter((key) => !listed.has(key)).sort(), 'limits missing from the README').toEqual([]);
      expect([...listed].filter((key) => !(key in defaults)).sort(), 'README limits not in the table').toEqual([]);
      const wrong = keys.filter((key) => {
        const row = rows.find((line) => (line.split('|')[1] ?? '').includes(`\`${key}\``)) ?? '';
        return !statesValue(row.split('|').slice(2).join('|'), defaults[key]);
      });
      expect(wrong, 'limits whose README row does not state the default').toEqual([]);
    });
  });
}

/**
 * Runs the `## Usage` example of the README beside `dir` as it is written (written to a generated file next to the
 * test and imported), and returns what it printed with `console.log`, one argument list per call. Fails when the block
 * is missing or does not mention `mustContain`; the generated file is removed afterwards.
 */
export async function runReadmeUsage(dir: string, mustContain: string): Promise<unknown[][]> {
  const code = readmeCodeBlock(readFileSync(join(dir, '..', 'README.md'), 'utf8'), '## Usage');
  if (code === undefined || !code.includes(mustContain)) {
    throw new Error(`README ## Usage block ${code === undefined ? 'is missing' : `does not mention ${mustContain}`}`);
  }
  const file = join(dir, 'readme-example.generated.ts');
  const logs: unknown[][] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logs.push(args));
  writeFileSync(file, code);
  try {
    await import(/* @vite-ignore */ file);
  } finally {
    log.mockRestore();
    rmSync(file, { force: true });
  }
  return logs;
}
