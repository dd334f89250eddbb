import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One public package of the monorepo, as found on disk. */
export interface PublicPackage {
  readonly name: string;
  readonly version: string;
  readonly dir: string;
  readonly bin: boolean;
}

/**
 * Every package under packages/ that is not private: read from disk, so a package another change adds is published,
 * linted and tried without anyone editing a list.
 */
export function publicPackages(repoRoot: string): PublicPackage[] {
  const found: PublicPackage[] = [];
  for (const entry of readdirSync(join(repoRoot, 'packages')).sort()) {
    const dir = join(repoRoot, 'packages', entry);
    let manifest: { name?: string; version?: string; private?: boolean; bin?: unknown };
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (manifest.private || !manifest.name || !manifest.version) continue;
    found.push({ name: manifest.name, version: manifest.version, dir, bin: manifest.bin !== undefined });
  }
  return found;
}

/**
 * The packages still at a placeholder version (0.0.0, or a pre-release of it): never released, so a user could not
 * depend on them by a normal range (`^0.0.0` matches only 0.0.0 itself). Cheap, so it runs before the registry starts.
 */
export function unreleasedPackages(packages: readonly PublicPackage[]): PublicPackage[] {
  return packages.filter((pkg) => /^0\.0\.0(?:[-+]|$)/.test(pkg.version));
}

/**
 * The usage example of a README: the first ```ts block under the `## Usage` heading (before the next `## `).
 * Undefined when there is none.
 */
export function usageExample(readme: string): string | undefined {
  const section = /^## Usage[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1];
  if (!section) return undefined;
  return /^```ts\n([\s\S]*?)^```/m.exec(section)?.[1];
}

/**
 * The ```ts blocks of the README section whose heading starts with `heading` (for example `## Usage` or
 * `### Typed results`), up to the next heading of the same or a higher level.
 */
export function readmeExamples(readme: string, heading: string): string[] {
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  if (start < 0) return [];
  const rest = lines.slice(start + 1);
  let fenced = false;
  const end = rest.findIndex((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    const hashes = fenced ? undefined : /^(#+) /.exec(line)?.[1];
    return hashes !== undefined && hashes.length <= level;
  });
  const section = (end < 0 ? rest : rest.slice(0, end)).join('\n');
  return [...section.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((match) => match[1] as string);
}
