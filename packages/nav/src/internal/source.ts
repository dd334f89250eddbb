/** Python files handled by the ast-grep grammar. */
export const PYTHON_EXT: ReadonlySet<string> = new Set(['py', 'pyi']);
/** Files handled by the TypeScript language service. */
export const TS_EXT: ReadonlySet<string> = new Set(['ts', 'tsx', 'js', 'jsx', 'mts', 'cts', 'mjs', 'cjs']);
