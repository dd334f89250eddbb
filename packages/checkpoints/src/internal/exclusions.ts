import { lstatSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Why a path is kept out of the store. */
export type SkipReason = 'protected' | 'excluded' | 'too_large' | 'symlink' | 'special_file' | 'nested_repository';

/** One path left out of a checkpoint, reported to the caller. */
export interface SkippedPath {
  readonly path: string;
  readonly reason: SkipReason;
}

/**
 * The paths kept out of the store, remembered between snapshots so the status check does not list them again.
 * Correctness never depends on this file: every listed path is checked on every snapshot; it only saves work.
 */
export class Exclusions {
  readonly #file: string;
  readonly #gitExclude: string;
  #map: Map<string, SkipReason> | undefined;

  constructor(file: string, gitDir: string) {
    this.#file = file;
    this.#gitExclude = join(gitDir, 'info', 'exclude');
  }

  async load(): Promise<Map<string, SkipReason>> {
    if (!this.#map) {
      const text = await readFile(this.#file, 'utf8').catch(() => '{}');
      let entries: Record<string, SkipReason> = {};
      try {
        entries = JSON.parse(text) as Record<string, SkipReason>;
      } catch {
        // A damaged file only costs a re-check of every path.
      }
      this.#map = new Map(Object.entries(entries));
    }
    return this.#map;
  }

  /** Paths whose reason may have gone away (a large file shrank, a link became a file) are forgotten here. */
  async recheck(root: string, maxFileBytes: number): Promise<boolean> {
    const map = await this.load();
    let changed = false;
    for (const [path, reason] of map) {
      if (reason === 'protected') continue;
      const st = lstatSync(join(root, path), { throwIfNoEntry: false });
      const still =
        st !== undefined &&
        ((reason === 'too_large' && st.isFile() && st.size > maxFileBytes) ||
          (reason === 'symlink' && st.isSymbolicLink()) ||
          (reason === 'special_file' && !st.isFile() && !st.isDirectory() && !st.isSymbolicLink()) ||
          (reason === 'nested_repository' && st.isDirectory()));
      if (!still) {
        map.delete(path);
        changed = true;
      }
    }
    return changed;
  }

  async save(): Promise<void> {
    const map = await this.load();
    const temp = `${this.#file}.tmp`;
    await writeFile(temp, JSON.stringify(Object.fromEntries(map)));
    await rename(temp, this.#file);
    const lines = [...map.keys()].filter((path) => !/[\n\r]/u.test(path)).map(excludeLine);
    await writeFile(this.#gitExclude, lines.length > 0 ? `${lines.join('\n')}\n` : '');
  }
}

/** An exclude pattern matching exactly one path from the top (glob characters and leading markers escaped). */
function excludeLine(path: string): string {
  const body = path.replace(/\/$/u, '').replace(/[\\*?[]/gu, (c) => `\\${c}`);
  return `/${body.replace(/ $/u, '\\ ')}`;
}
