import { describe, expect, it } from 'vitest';
import { DYNAMIC_GRAMMARS, loadAstGrep } from './load-ast-grep.js';

const SNIPPETS: Record<(typeof DYNAMIC_GRAMMARS)[number], { code: string; kind: string }> = {
  python: { code: 'def f():\n    return 1\n', kind: 'function_definition' },
  rust: { code: 'fn f() -> i32 { 1 }\n', kind: 'function_item' },
  go: { code: 'package p\nfunc f() int { return 1 }\n', kind: 'function_declaration' },
  c: { code: 'int f(void) { return 1; }\n', kind: 'function_definition' },
  cpp: { code: 'namespace n { int f() { return 1; } }\n', kind: 'function_definition' },
};

describe('loadAstGrep', () => {
  it('registers all five prebuilt grammars and each one parses real code', async () => {
    const engine = await loadAstGrep();
    expect([...engine.available].sort()).toEqual([...DYNAMIC_GRAMMARS].sort());
    expect(engine.missing.size).toBe(0);
    for (const name of DYNAMIC_GRAMMARS) {
      const { code, kind } = SNIPPETS[name];
      const root = engine.napi.parse(name, code).root();
      expect(root.find({ rule: { kind: 'ERROR' } }), name).toBeNull();
      expect(root.find({ rule: { kind } }), name).not.toBeNull();
    }
  });

  it('is idempotent: concurrent and repeated calls share one engine', async () => {
    const [a, b] = await Promise.all([loadAstGrep(), loadAstGrep()]);
    expect(a).toBe(b);
    expect(await loadAstGrep()).toBe(a);
  });

  it('keeps every grammar when a later caller tries to register a smaller set directly', async () => {
    const engine = await loadAstGrep();
    const python = (await import('@ast-grep/lang-python')).default;
    engine.napi.registerDynamicLanguage({ python: { libraryPath: python.libraryPath, extensions: python.extensions } });
    for (const name of DYNAMIC_GRAMMARS) expect(() => engine.napi.parse(name, ''), name).not.toThrow();
  });
});
