import { DYNAMIC_GRAMMARS } from '../languages.js';

/** The @ast-grep/napi module, loaded on first use. */
export type Napi = typeof import('@ast-grep/napi');

/** The loaded engine plus the dynamic grammars that answer in this process. */
export interface AstGrepEngine {
  readonly napi: Napi;
  /** Dynamic grammar names (python, rust, go, c, cpp) that parse; another registration may have claimed the slot. */
  readonly available: ReadonlySet<string>;
}

interface GrammarModule {
  readonly libraryPath: string;
  readonly extensions: string[];
  readonly languageSymbol?: string;
  readonly expandoChar?: string;
  readonly metaVarChar?: string;
}

// napi accepts exactly one registration per process (later calls are ignored), so the loaded engine is cached
// process-wide: this is a handle on native state that already is global, not tool state.
let loading: Promise<AstGrepEngine> | undefined;

async function loadGrammar(specifier: string): Promise<GrammarModule | undefined> {
  try {
    const mod = (await import(specifier)) as { default?: GrammarModule } & GrammarModule;
    const grammar = mod.default ?? mod;
    return typeof grammar.libraryPath === 'string' ? grammar : undefined;
  } catch {
    return undefined;
  }
}

async function load(): Promise<AstGrepEngine> {
  const napi = await import('@ast-grep/napi');
  const registrations: Record<string, GrammarModule> = {};
  for (const [name, specifier] of Object.entries(DYNAMIC_GRAMMARS)) {
    const grammar = await loadGrammar(specifier);
    if (!grammar) continue;
    registrations[name] = {
      libraryPath: grammar.libraryPath,
      extensions: grammar.extensions,
      ...(grammar.languageSymbol ? { languageSymbol: grammar.languageSymbol } : {}),
      ...(grammar.expandoChar ? { expandoChar: grammar.expandoChar } : {}),
      ...(grammar.metaVarChar ? { metaVarChar: grammar.metaVarChar } : {}),
    };
  }
  try {
    napi.registerDynamicLanguage(registrations);
  } catch {
    // Already registered by another component in this process; the probe below tells what answers.
  }
  const available = new Set<string>();
  for (const name of Object.keys(DYNAMIC_GRAMMARS)) {
    try {
      napi.parse(name, '');
      available.add(name);
    } catch {
      // not registered in this process
    }
  }
  return { napi, available };
}

/** Loads @ast-grep/napi and registers the prebuilt grammars once per process. */
export function loadAstGrep(): Promise<AstGrepEngine> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
