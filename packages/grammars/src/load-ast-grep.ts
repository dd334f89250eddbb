import { DYNAMIC_GRAMMARS, type DynamicGrammar, loadFailureReason } from './internal/grammar-packages.js';

/** The grammar names this loader registers (defined beside their packages in internal/grammar-packages.ts). */
export { DYNAMIC_GRAMMARS, type DynamicGrammar };

/** The @ast-grep/napi module as loaded by {@link loadAstGrep}. */
export type Napi = typeof import('@ast-grep/napi');

/** The loaded engine and which of the prebuilt grammars really parse in this process. */
export interface AstGrepEngine {
  /** The napi module, with the grammars registered. */
  readonly napi: Napi;
  /** Grammars that parse; a grammar is absent when its package failed to load or someone else registered first. */
  readonly available: ReadonlySet<DynamicGrammar>;
  /** Why each absent grammar is absent, in words a caller can show. */
  readonly missing: ReadonlyMap<DynamicGrammar, string>;
}

interface Registration {
  readonly libraryPath: string;
  readonly extensions: string[];
  readonly languageSymbol?: string;
  readonly expandoChar?: string;
  readonly metaVarChar?: string;
}

type GrammarModule = Registration | { default: Registration };

// Literal specifiers (not a computed string) so bundlers and dependency scanners can see each grammar package.
const GRAMMAR_LOADERS: Readonly<Record<DynamicGrammar, () => Promise<GrammarModule>>> = {
  python: () => import('@ast-grep/lang-python'),
  rust: () => import('@ast-grep/lang-rust'),
  go: () => import('@ast-grep/lang-go'),
  c: () => import('@ast-grep/lang-c'),
  cpp: () => import('@ast-grep/lang-cpp'),
};

function registrationOf(mod: GrammarModule): Registration | undefined {
  const candidate = 'default' in mod ? mod.default : mod;
  if (typeof candidate?.libraryPath !== 'string' || !Array.isArray(candidate.extensions)) return undefined;
  return {
    libraryPath: candidate.libraryPath,
    extensions: candidate.extensions,
    ...(candidate.languageSymbol ? { languageSymbol: candidate.languageSymbol } : {}),
    ...(candidate.expandoChar ? { expandoChar: candidate.expandoChar } : {}),
    ...(candidate.metaVarChar ? { metaVarChar: candidate.metaVarChar } : {}),
  };
}

async function load(): Promise<AstGrepEngine> {
  const napi = await import('@ast-grep/napi');
  const registrations: Partial<Record<DynamicGrammar, Registration>> = {};
  const missing = new Map<DynamicGrammar, string>();
  await Promise.all(
    DYNAMIC_GRAMMARS.map(async (name) => {
      try {
        const registration = registrationOf(await GRAMMAR_LOADERS[name]());
        if (registration) registrations[name] = registration;
        else missing.set(name, `the ${name} grammar package does not describe a parser library`);
      } catch (error) {
        missing.set(name, loadFailureReason(name, error));
      }
    }),
  );
  try {
    // One call with every grammar: napi keeps the first registration of the process and ignores the rest.
    napi.registerDynamicLanguage(registrations);
  } catch {
    // Older napi builds throw on a repeated registration; the probe below tells what answers either way.
  }
  const available = new Set<DynamicGrammar>();
  for (const name of DYNAMIC_GRAMMARS) {
    if (missing.has(name)) continue;
    try {
      napi.parse(name, '');
      available.add(name);
    } catch {
      missing.set(name, `the ${name} grammar is not registered: another component registered ast-grep languages first`);
    }
  }
  return { napi, available, missing };
}

// The registration lives in native code and is process-wide already; this promise only mirrors that fact so the
// registration is attempted once. It is not tool state: nothing about a workspace or a call is kept here.
let loading: Promise<AstGrepEngine> | undefined;

/**
 * Loads @ast-grep/napi and registers python, rust, go, c and cpp (those installed) in one call, once per process, so
 * every bough component sees the same grammars whichever loads first. A grammar whose optional package is not
 * installed is in `missing` with the install command. A failed load of napi is forgotten so the next call retries.
 */
export function loadAstGrep(): Promise<AstGrepEngine> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
