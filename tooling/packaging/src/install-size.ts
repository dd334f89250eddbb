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

/** Bytes as megabytes (10^6) with one decimal, the unit of the README's table. */
export function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(1);
}
