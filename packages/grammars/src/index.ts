/** The shared, once-per-process ast-grep loader and the grammars it registers. */
export { type AstGrepEngine, DYNAMIC_GRAMMARS, type DynamicGrammar, loadAstGrep, type Napi } from './load-ast-grep.js';
