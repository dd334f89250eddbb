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

/** Failure codes passed literally to a failure builder in a package's sources (calls split over lines included). */
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
 * Keeps a package README honest: every failure code its sources return and every key of its limits object must
 * appear in the README as `code`. `srcDir` is the package's src directory (`import.meta.dirname` of the test);
 * `codes` adds a package's exported code table when its sources build failures from that table.
 */
export function describeReadmeContract(
  srcDir: string,
  limits: object,
  options: { codes?: readonly string[] } = {},
): void {
  const readme = readFileSync(join(srcDir, '..', 'README.md'), 'utf8');
  describe('README', () => {
    it('documents every error_code the sources return', () => {
      // Packages that keep their codes in an exported table pass it; literal codes in the sources are found too.
      const codes = [...new Set([...returnedCodes(srcDir), ...(options.codes ?? [])])].sort();
      expect(codes.length).toBeGreaterThan(0);
      expect(codes.filter((code) => !readme.includes(`\`${code}\``))).toEqual([]);
    });

    it('documents every limit', () => {
      expect(Object.keys(limits).filter((key) => !readme.includes(`\`${key}\``))).toEqual([]);
    });
  });
}
