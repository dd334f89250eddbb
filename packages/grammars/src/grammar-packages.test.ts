// Only Python is installed with this package; the other grammars are optional peers whose absence names the command
// that installs them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GRAMMAR_PACKAGES, loadFailureReason } from './internal/grammar-packages.js';
import { DYNAMIC_GRAMMARS } from './load-ast-grep.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

describe('which grammars are installed with @bough/grammars', () => {
  it('depends on the Python grammar alone; the others are optional peers', () => {
    const grammarDeps = Object.keys(manifest.dependencies).filter((name) => name.startsWith('@ast-grep/lang-'));
    expect(grammarDeps).toEqual([GRAMMAR_PACKAGES.python]);
    const others = DYNAMIC_GRAMMARS.filter((name) => name !== 'python').map((name) => GRAMMAR_PACKAGES[name]);
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual([...others].sort());
    for (const pkg of others) expect(manifest.peerDependenciesMeta[pkg]?.optional, pkg).toBe(true);
  });

  it('a grammar package that is not installed is reported with its install command', async () => {
    // The error Node really raises for a package that is not installed.
    const error = await import('@ast-grep/lang-zz-not-installed' as string).catch((caught: unknown) => caught);
    const text = String(error).replace('@ast-grep/lang-zz-not-installed', GRAMMAR_PACKAGES.rust);
    const reason = loadFailureReason(
      'rust',
      Object.assign(new Error(text), { code: (error as { code: string }).code }),
    );
    expect(reason).toContain('npm install @ast-grep/lang-rust');
    expect(reason).toContain('not installed');
  });

  it('any other load failure keeps its own message', () => {
    const reason = loadFailureReason('go', new Error('invalid ELF header'));
    expect(reason).toContain('invalid ELF header');
    expect(reason).not.toContain('npm install');
  });
});
