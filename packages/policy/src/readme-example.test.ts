// The README's usage example, run as it is written.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeCodeBlock } from '@bough/test-utils';
import { afterEach, expect, it, vi } from 'vitest';

const file = join(import.meta.dirname, 'readme-example.generated.ts');
afterEach(() => rmSync(file, { force: true }));

it('runs the README usage example: the verdicts and the hooked calls come out as its comments say', async () => {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const code = readmeCodeBlock(readme, '## Usage');
  expect(code).toContain('permissionHook');
  const logs: unknown[][] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logs.push(args));
  writeFileSync(file, code as string);
  try {
    await import(/* @vite-ignore */ file);
  } finally {
    log.mockRestore();
  }
  expect(logs).toEqual([
    ['allow'],
    ['deny'],
    ['ask'],
    ['deny', 'secrets/**'],
    ['ls -la', 'completed', ''],
    ['make', 'completed', ''],
    ['make install', 'failed', 'denied'],
    ['rm -rf /', 'failed', 'denied'],
  ]);
});
