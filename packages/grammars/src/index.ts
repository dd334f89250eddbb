/** The shared, once-per-process ast-grep loader and the grammars it registers. */

export { GRAMMAR_PACKAGES } from './internal/grammar-packages.js';
export {
  type AstGrepEngine,
  DYNAMIC_GRAMMARS,
  type DynamicGrammar,
  loadAstGrep,
  type Napi,
} from './load-ast-grep.js';
