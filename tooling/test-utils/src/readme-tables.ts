import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatBytes, formatCount } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { documentedCodes } from './readme-contract.js';

/** What a package's README must document: its exported code table and its limit defaults. */
export interface ReadmeTables {
  /** The package's `defineErrorCodes` table (several may be concatenated); omit for a package that returns none. */
  readonly codes?: readonly string[];
  /** The package's limit defaults (`LIMITS.defaults`); omit for a package without limits. */
  readonly limits?: Readonly<Record<string, number>>;
  /** Heading prefix of the limits section; default `## Limits`. */
  readonly limitsHeading?: string;
}

/** The text of the first `## …` section whose heading starts with `heading`, up to the next heading of that level. */
export function readmeSection(readme: string, heading: string): string | undefined {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  if (start < 0) return undefined;
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const stop = lines.findIndex((line, i) => i > start && new RegExp(`^#{1,${level}} `).test(line));
  return lines.slice(start + 1, stop < 0 ? undefined : stop).join('\n');
}

/** The backticked names in the first column of every table row of a section (header and rule rows skipped). */
export function firstColumnNames(section: string): string[] {
  const names: string[] = [];
  let inTable = false;
  for (const line of section.split('\n')) {
    const row = line.startsWith('|');
    // The first row of a table is its header (`| code | when |`), never an entry.
    const header = row && !inTable;
    inTable = row;
    if (!row || header || /^\|[\s|:-]+\|?$/.test(line)) continue;
    const cell = line.split('|')[1] ?? '';
    for (const match of cell.matchAll(/`([A-Za-z][A-Za-z0-9_]*)`/g)) names.push(match[1] as string);
  }
  return names;
}

/** True when a limits row states the default in one of the ways READMEs write numbers (`6,000`, `64 MiB`, `0.7`). */
function statesValue(row: string, value: number): boolean {
  return [formatCount(value), formatBytes(value), String(value)].some((text) => row.includes(text));
}

/**
 * Checks a README against the package's exported tables rather than against its source text: the failure code
 * section lists exactly the code table (no code missing, none extra; the same check as `describeReadmeContract` with
 * `table`), and — stricter than that helper — the limits section lists exactly the limit keys, each on a row that
 * states its default.
 */
export function describeReadmeTables(srcDir: string, tables: ReadmeTables): void {
  const readme = readFileSync(join(srcDir, '..', 'README.md'), 'utf8');
  describe('README', () => {
    const codes = tables.codes;
    // A package that returns no failure values of its own (the CLI answers with exit codes) has no code test.
    // The code section is read by the one parser of `describeReadmeContract` (`documentedCodes`).
    if (codes !== undefined)
      it('lists exactly the exported failure code table', () => {
        const table = [...new Set(codes)].sort();
        expect(table.length).toBeGreaterThan(0);
        expect(documentedCodes(readme)).toEqual(table);
      });

    const limits = tables.limits;
    if (limits === undefined) return;
    it('lists exactly the limits, each with its default', () => {
      const section = readmeSection(readme, tables.limitsHeading ?? '## Limits');
      expect(section, 'a limits section').toBeDefined();
      const rows = (section ?? '').split('\n').filter((line) => line.startsWith('|'));
      const listed = new Set(firstColumnNames(section ?? ''));
      const keys = Object.keys(limits);
      expect(keys.filter((key) => !listed.has(key)).sort(), 'limits missing from the README').toEqual([]);
      expect([...listed].filter((key) => !(key in limits)).sort(), 'README limits not in the table').toEqual([]);
      const wrong = keys.filter((key) => {
        const row = rows.find((line) => (line.split('|')[1] ?? '').includes(`\`${key}\``)) ?? '';
        return !statesValue(row.split('|').slice(2).join('|'), limits[key] as number);
      });
      expect(wrong, 'limits whose README row does not state the default').toEqual([]);
    });
  });
}
