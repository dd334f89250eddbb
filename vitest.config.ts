import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources of every sibling package, so no build is needed before `vitest`.
const alias: Record<string, string> = {};
for (const dir of ['packages', 'tooling']) {
  for (const name of readdirSync(resolve(dir))) {
    try {
      const pkg = JSON.parse(readFileSync(resolve(dir, name, 'package.json'), 'utf8')) as {
        name: string;
        exports?: Record<string, string | Record<string, string>>;
      };
      alias[pkg.name] = resolve(dir, name, 'src/index.ts');
      // Subpath entries (`@bough/workspace/internal`, `@bough/ai-sdk/anthropic`) resolve to their sources too.
      for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
        const source = typeof target === 'object' ? target['@bough/source'] : undefined;
        if (subpath !== '.' && source) alias[`${pkg.name}${subpath.slice(1)}`] = resolve(dir, name, source);
      }
    } catch {
      // not a package folder
    }
  }
}

export default defineConfig({
  resolve: {
    alias: Object.entries(alias).map(([find, replacement]) => ({ find: new RegExp(`^${find}$`), replacement })),
  },
  test: {
    include: [join('packages', '*', 'src', '**', '*.test.ts'), join('tooling', '*', 'src', '**', '*.test.ts')],
    // The packaging test is its own project (tooling/packaging/vitest.config.ts, `pnpm test:packaging`); only its
    // registry-free checks (tooling/packaging/src/unit/) run here.
    exclude: [join('tooling', 'packaging', 'src', '*.test.ts'), '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A test that checks nothing must fail rather than count as passing.
    expect: { requireAssertions: true },
  },
});
