/** Names under which the prebuilt grammars are registered with @ast-grep/napi. */
export const DYNAMIC_GRAMMARS = ['python', 'rust', 'go', 'c', 'cpp'] as const;

/** One of {@link DYNAMIC_GRAMMARS}. */
export type DynamicGrammar = (typeof DYNAMIC_GRAMMARS)[number];

/**
 * The npm package of each grammar. Python is a dependency (code_nav needs it); the others are optional peers, installed
 * by whoever searches those languages, so a Python/TypeScript user does not download four native parsers.
 */
export const GRAMMAR_PACKAGES: Readonly<Record<DynamicGrammar, string>> = Object.freeze({
  python: '@ast-grep/lang-python',
  rust: '@ast-grep/lang-rust',
  go: '@ast-grep/lang-go',
  c: '@ast-grep/lang-c',
  cpp: '@ast-grep/lang-cpp',
});

/** Why a grammar package failed to load, in words that name the install command when it is simply not installed. */
export function loadFailureReason(name: DynamicGrammar, error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const pkg = GRAMMAR_PACKAGES[name];
  if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(error).includes(pkg)) {
    return `the ${name} grammar is not installed (it is an optional peer dependency): run \`npm install ${pkg}\``;
  }
  return `the ${name} grammar package could not be loaded (${(error as Error)?.message ?? String(error)})`;
}
