import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Apparent size in bytes of every file under a folder (links counted as links, not followed). */
export function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(path);
    else total += lstatSync(path).size;
  }
  return total;
}

/** The largest installed packages of a node_modules folder (`@scope/name` counted as one), biggest first. */
export function largest(nodeModules: string, count: number): [string, number][] {
  const sizes: [string, number][] = [];
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(nodeModules, entry.name);
    if (!entry.name.startsWith('@')) {
      sizes.push([entry.name, treeBytes(path)]);
      continue;
    }
    for (const scoped of readdirSync(path, { withFileTypes: true })) {
      if (scoped.isDirectory()) sizes.push([`${entry.name}/${scoped.name}`, treeBytes(join(path, scoped.name))]);
    }
  }
  return sizes.sort((a, b) => b[1] - a[1]).slice(0, count);
}

/** Bytes as megabytes (10^6) with one decimal, the unit of the README's table. */
export function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(1);
}
