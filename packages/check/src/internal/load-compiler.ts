import { dirname, resolve } from 'node:path';
import type { ts } from '@ts-morph/common';

/** The compiler namespace check type-checks with. */
export type TS = typeof ts;

/** The loaded compiler: its namespace, the directory it names its library files under, and their texts. */
export interface Compiler {
  readonly t: TS;
  /** Where the compiler looks for `lib.*.d.ts`; the files are not on disk there, {@link Compiler.library} has them. */
  readonly libDir: string;
  /** The text of a library file by absolute path, or undefined when it is not one of the compiler's own. */
  library(path: string): string | undefined;
}

let loading: Promise<Compiler> | undefined;

async function load(): Promise<Compiler> {
  // The compiler ts-morph bundles (the one @bough/nav uses), so an install that has both tools carries one TypeScript.
  // Its standard library ships inside the module as text rather than as files next to it.
  const mod = await import('@ts-morph/common');
  const t = mod.ts;
  const libDir = dirname(t.getDefaultLibFilePath({}));
  const texts = new Map<string, string>();
  for (const file of mod.getLibFiles()) texts.set(file.fileName, file.text);
  return {
    t,
    libDir,
    library: (path) => {
      const abs = resolve(path);
      return dirname(abs) === libDir ? texts.get(abs.slice(libDir.length + 1)) : undefined;
    },
  };
}

/**
 * Loads the TypeScript compiler on first use (importing @bough/check loads none of it); later calls get the same one.
 * A failed load is not remembered, so a later call tries again.
 */
export function loadCompiler(): Promise<Compiler> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
