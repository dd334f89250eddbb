import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { publicPackages, unreleasedPackages } from '../packages.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function repoWith(manifests: Record<string, object>): string {
  root = mkdtempSync(join(tmpdir(), 'bough-packaging-unit-'));
  for (const [dir, manifest] of Object.entries(manifests)) {
    mkdirSync(join(root, 'packages', dir), { recursive: true });
    writeFileSync(join(root, 'packages', dir, 'package.json'), JSON.stringify(manifest));
  }
  return root;
}

it('refuses a public package at the placeholder version 0.0.0 or a pre-release of it', () => {
  const packages = publicPackages(
    repoWith({
      a: { name: '@x/a', version: '0.1.0' },
      b: { name: '@x/b', version: '0.0.0' },
      c: { name: '@x/c', version: '0.0.0-next.1' },
      d: { name: '@x/d', version: '0.0.1' },
      e: { name: '@x/e', version: '0.0.0', private: true },
    }),
  );
  expect(unreleasedPackages(packages).map((pkg) => pkg.name)).toEqual(['@x/b', '@x/c']);
});

it('finds no unreleased package in this repository', () => {
  const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
  const packages = publicPackages(repoRoot);
  expect(packages.length).toBeGreaterThan(10);
  expect(unreleasedPackages(packages)).toEqual([]);
});
