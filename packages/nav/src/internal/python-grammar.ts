import { loadAstGrep, type Napi } from '@bough/grammars';

export type { Napi };

/**
 * The ast-grep engine with the Python grammar ready. Registration goes through @bough/grammars, which registers
 * every grammar bough uses in one call, so loading code_nav first no longer hides other languages from ast_search.
 */
export async function loadPythonGrammar(): Promise<Napi> {
  const engine = await loadAstGrep();
  if (!engine.available.has('python')) {
    throw new Error(engine.missing.get('python') ?? 'the Python grammar is not available in this process');
  }
  return engine.napi;
}
