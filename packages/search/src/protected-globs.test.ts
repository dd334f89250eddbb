import { makeWorkspace } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { ok, searchIn } from '../test/helpers.js';
import { protectedGlobArgs } from './protected-globs.js';

describe('protected-name exclusion globs', () => {
  it('the default policy is one glob of alternatives (an allowed template pattern left out)', () => {
    const args = protectedGlobArgs();
    expect(args).toHaveLength(1);
    expect(args[0]).toMatch(/^--iglob=!\{\.env,.*\*\.pem,.*\}$/);
    expect(args[0]).not.toContain('.env.*');
  });

  it('names with glob characters or commas are escaped; a pattern with braces or commas stands alone', () => {
    const policy = { names: ['a,b', 'x{y}', 'q?'], patterns: ['*.{p,q}', '*.sec'], allow: [] };
    expect(protectedGlobArgs(policy)).toEqual(['--iglob=!{a\\,b,x\\{y\\},q\\?,*.sec}', '--iglob=!*.{p,q}']);
    expect(protectedGlobArgs({ names: ['only'], patterns: [], allow: [] })).toEqual(['--iglob=!only']);
    expect(protectedGlobArgs({ names: [], patterns: [], allow: [] })).toEqual([]);
  });

  it('ripgrep never opens any of them, at any depth and in any case, and counts each', async () => {
    const ws = makeWorkspace({
      'a,b': 'needle 1\n',
      'deep/X{Y}': 'needle 2\n',
      'deep/er/Q?': 'needle 3\n',
      'deep/k.P': 'needle 4\n',
      'deep/k.SEC': 'needle 5\n',
      'deep/qq': 'needle shown\n',
      ab: 'needle shown too\n',
    });
    try {
      const protectedNames = { names: ['a,b', 'x{y}', 'q?'], patterns: ['*.{p,q}', '*.sec'], allow: [] };
      const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle', exact_skips: true }, { protectedNames }));
      expect(out.content.split('\n')).toEqual(['ab:1:needle shown too', 'deep/qq:1:needle shown']);
      expect(out.skipped).toMatchObject({ protected_files: 5, protected: 0 });
    } finally {
      ws.cleanup();
    }
  });
});
