// Keeps the README honest: every failure code the sources can return and every limit is documented there.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKSPACE_ERROR_CODES } from './errors.js';
import { DEFAULT_WORKSPACE_LIMITS as LIMITS } from './limits.js';

const src = import.meta.dirname;
const readme = readFileSync(join(src, '..', 'README.md'), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/** Codes passed literally to a failure builder, including calls split over several lines. */
function returnedCodes(): string[] {
  const found = new Set<string>();
  for (const text of sources(src)) {
    for (const match of text.matchAll(/(?:workspaceFailure|processFailure|failure|Refusal)\(\s*'([a-z_]+)'/g)) {
      found.add(match[1] as string);
    }
  }
  return [...found].sort();
}

describe('README', () => {
  it('documents every error_code the sources return', () => {
    const codes = returnedCodes();
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.filter((code) => !readme.includes(`\`${code}\``))).toEqual([]);
  });

  it('documents every limit', () => {
    expect(Object.keys(LIMITS).filter((key) => !readme.includes(`\`${key}\``))).toEqual([]);
  });

  it('lists exactly the stable codes in its failure table', () => {
    const table = readme.slice(readme.indexOf('## Failure codes'), readme.indexOf('## Limits'));
    const documented = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)]
      .map((m) => m[1])
      .filter((code) => code !== 'error_code');
    expect(documented.sort()).toEqual([...WORKSPACE_ERROR_CODES].sort());
  });
});
