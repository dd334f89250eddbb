import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, inject, it } from 'vitest';
import { publicPackages } from './packages.js';
import { limited, run } from './run.js';

// publint --strict and attw on the very tarballs the registry serves.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const only = process.env.BOUGH_PACKAGING_ONLY?.split(',').filter(Boolean);
const packages = publicPackages(repoRoot).filter((pkg) => !only || only.includes(pkg.name));
const attw = join(
  dirname(createRequire(import.meta.url).resolve('@arethetypeswrong/cli/package.json')),
  'dist',
  'index.js',
);
const slot = limited<Awaited<ReturnType<typeof run>>>(2);

describe('publint --strict and attw on each packed tarball', () => {
  // BOUGH_PACKAGING_ONLY=zod selects no package here: one skipped test keeps the file from failing as empty.
  it.skipIf(packages.length > 0)('no package selected', () => undefined);
  const { tarballs, tmp } = inject('packaging');

  it.concurrent.each(packages.map((pkg) => [pkg.name] as const))(
    '%s',
    async (name) => {
      const tarball = tarballs[name];
      if (!tarball) throw new Error(`${name} was not packed`);
      const bytes = readFileSync(tarball);
      const { messages, pkg } = await publint({
        pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
        strict: true,
      });
      // strict: warnings count as errors; suggestions are left to the reader.
      const problems = messages.filter((message) => message.type !== 'suggestion');
      expect(problems.map((message) => formatMessage(message, pkg))).toEqual([]);
      // ESM only: `require` of these packages is Node's require(esm), which attw's esm-only profile leaves out.
      const result = await slot(() =>
        run(process.execPath, [attw, tarball, '--profile', 'esm-only', '--format', 'ascii'], {
          cwd: tmp,
          timeoutMs: 5 * 60_000,
        }),
      );
      expect(result.code, `attw --pack ${name}\n${result.stdout}\n${result.stderr}`).toBe(0);
    },
    10 * 60_000,
  );
});
