/** The @ast-grep/napi module, loaded on first use. */
export type Napi = typeof import('@ast-grep/napi');

// napi takes one language registration per process and ignores later ones, so the loaded engine is cached
// process-wide: a handle on native state that is already global, not tool state.
let loading: Promise<Napi> | undefined;

async function load(): Promise<Napi> {
  const napi = await import('@ast-grep/napi');
  const mod = (await import('@ast-grep/lang-python')) as {
    default?: { libraryPath: string; extensions: string[]; languageSymbol?: string; expandoChar?: string };
  };
  const python = mod.default;
  if (python) {
    try {
      napi.registerDynamicLanguage({
        python: {
          libraryPath: python.libraryPath,
          extensions: python.extensions,
          ...(python.languageSymbol ? { languageSymbol: python.languageSymbol } : {}),
          ...(python.expandoChar ? { expandoChar: python.expandoChar } : {}),
        },
      });
    } catch {
      // registered elsewhere in this process; the probe below decides
    }
  }
  napi.parse('python', ''); // throws when python is not registered in this process
  return napi;
}

/** Loads @ast-grep/napi with the Python grammar registered. */
export function loadPythonGrammar(): Promise<Napi> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
