/** Languages the ast_search tool understands, as named on the wire. */
export const AST_SEARCH_LANGUAGES = [
  'python',
  'rust',
  'typescript',
  'tsx',
  'javascript',
  'go',
  'c',
  'cpp',
  'html',
  'css',
] as const;

/** One of {@link AST_SEARCH_LANGUAGES}. */
export type AstSearchLanguage = (typeof AST_SEARCH_LANGUAGES)[number];

/** How a language is parsed, which files belong to it and how a statement-level pattern is given a context. */
export interface LanguageInfo {
  /** Name understood by @ast-grep/napi (built-in enum value or dynamic registration name). */
  readonly napiName: string;
  /** Extensions (no dot, lower case) of the files searched when a directory is given. */
  readonly extensions: readonly string[];
  /** Character ast-grep substitutes for `$` before parsing a pattern in this language. */
  readonly expando: string;
  /** Wraps a pattern that is not valid at the top level of a file into code where it is (Go, C, C++, Rust, CSS). */
  readonly wrap?: (pattern: string) => string;
}

const wrapInBlock = (head: string) => (pattern: string) => `${head} {\n${pattern}\n}`;
const wrapInCFunction = (pattern: string) => {
  const end = pattern.trimEnd();
  const terminated = end.endsWith(';') || end.endsWith('}');
  return `void _() {\n${pattern}${terminated ? '' : ';'}\n}`;
};

/** Static facts about every supported language. */
export const LANGUAGE_INFO: Readonly<Record<AstSearchLanguage, LanguageInfo>> = Object.freeze({
  python: { napiName: 'python', extensions: ['py', 'pyi'], expando: 'µ' },
  rust: { napiName: 'rust', extensions: ['rs'], expando: 'µ', wrap: wrapInBlock('fn _()') },
  typescript: { napiName: 'TypeScript', extensions: ['ts', 'mts', 'cts'], expando: '$' },
  tsx: { napiName: 'Tsx', extensions: ['tsx'], expando: '$' },
  javascript: { napiName: 'JavaScript', extensions: ['js', 'mjs', 'cjs', 'jsx'], expando: '$' },
  go: { napiName: 'go', extensions: ['go'], expando: 'µ', wrap: wrapInBlock('func _()') },
  c: { napiName: 'c', extensions: ['c', 'h'], expando: '_', wrap: wrapInCFunction },
  cpp: {
    napiName: 'cpp',
    extensions: ['cc', 'cpp', 'cxx', 'c++', 'hh', 'hpp', 'hxx', 'h', 'cu', 'ino'],
    expando: '_',
    wrap: wrapInCFunction,
  },
  html: { napiName: 'Html', extensions: ['html', 'htm'], expando: 'z' },
  css: { napiName: 'Css', extensions: ['css'], expando: '_', wrap: wrapInBlock('_') },
});
