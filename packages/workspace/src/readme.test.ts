// Keeps the README honest: every failure code the sources can return and every limit is documented there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeReadmeContract } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { WORKSPACE_ERROR_CODES } from './errors.js';
import { DEFAULT_WORKSPACE_LIMITS as LIMITS } from './limits.js';

const src = import.meta.dirname;
const readme = readFileSync(join(src, '..', 'README.md'), 'utf8');

describeReadmeContract(src, LIMITS);

describe('README failure table', () => {
  it('lists exactly the stable codes in its failure table', () => {
    const table = readme.slice(readme.indexOf('## Failure codes'), readme.indexOf('## Limits'));
    const documented = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)]
      .map((m) => m[1])
      .filter((code) => code !== 'error_code');
    expect(documented.sort()).toEqual([...WORKSPACE_ERROR_CODES].sort());
  });
});
