import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

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
function limitKeys(limits: object): string[] {
  const table = limits as { defaults?: unknown; resolve?: unknown };
  if (typeof table.resolve === 'function' && typeof table.defaults === 'object' && table.defaults !== null) {
    return Object.keys(table.defaults);
  }
  return Object.keys(limits);
}

/** Options of {@link describeReadmeContract}. */
export interface ReadmeContractOptions {
  /**
   * The package's exported code table (core `defineErrorCodes`). With it the README's `## Failure codes` table must
   * list exactly these codes — none missing, none extra — and the sources are not scanned.
   */
  readonly table?: readonly string[];
  /** Legacy: codes added to those found by scanning the sources (packages without a table yet). */
  readonly codes?: readonly string[];
}

/**
 * Keeps a package README honest: its failure codes (exactly the exported table, when `table` is given) and every key
 * of its limits appear in the README as `code`. `srcDir` is the package's src directory (`import.meta.dirname` of
 * the test); `limits` is the defaults object or the `defineLimits` table.
 */
export function describeReadmeContract(srcDir: string, limits: object, options: ReadmeContractOptions = {}): void {
  const readme = readFileSync(join(srcDir, '..', 'README.md'), 'utf8');
  describe('README', () => {
    if (options.table !== undefined) {
      const table = [...options.table].sort();
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

    it('documents every limit', () => {
      expect(limitKeys(limits).filter((key) => !readme.includes(`\`${key}\``))).toEqual([]);
    });
  });
}
