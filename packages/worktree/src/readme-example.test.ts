// The README's usage example, run as it is written.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeCodeBlock } from '@bough/test-utils';
import { afterEach, expect, it, vi } from 'vitest';

const file = join(import.meta.dirname, 'readme-example.generated.ts');
afterEach(() => rmSync(file, { force: true }));

it('runs the README usage example: a change made in the worktree is merged back into dev', async () => {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const code = readmeCodeBlock(readme, '## Usage');
  expect(code).toContain('createWorktree');
  const logs: unknown[][] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logs.push(args));
  writeFileSync(file, code as string);
  try {
    await import(/* @vite-ignore */ file);
  } finally {
    log.mockRestore();
  }
  expect(logs).toEqual([[['notes.txt']], [expect.stringMatching(/^Merged worktree-[0-9a-f]{8} into dev/)]]);
});
