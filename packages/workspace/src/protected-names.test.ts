import { mkdirSync, symlinkSync } from 'node:fs';
import { CANARY, type Fixture, useFixture } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROTECTED, isProtectedName } from './protected-names.js';
import { Workspace } from './workspace.js';

let f: Fixture;
useFixture({ 'a.txt': 'A', 'src/b.ts': 'B', 'src/deep/c.ts': 'C', '.env.example': 'X=1' }, (made) => {
  f = made;
});

async function code(path: string, intent: 'read' | 'write' | 'list' = 'read') {
  const r = await f.ws.resolve(path, intent);
  if (r.success) return 'ok';
  expect(r.error).not.toContain(CANARY);
  if (!path.includes(f.outside)) expect(r.error).not.toContain(f.outside);
  return r.error_code;
}

describe('isProtectedName', () => {
  it.each([
    '.env',
    '.ENV',
    '.Env.',
    '.env ',
    '.env. .',
    '.env.local',
    '.env.production',
    '.netrc',
    '.htpasswd',
    '.pypirc',
    '.npmrc',
    'id_rsa',
    'ID_RSA',
    'id_dsa',
    'id_ecdsa',
    'id_ed25519',
    'server.pem',
    'TLS.KEY',
    'cert.p12',
    'a.pfx',
    'putty.ppk',
    'x.pem.',
  ])('%j is protected', (name) => {
    expect(isProtectedName(name)).toBe(true);
  });

  it.each([
    '.env.example',
    '.ENV.Sample',
    '.env.template ',
    'env',
    '.envrc',
    'id_rsa.pub',
    'key.txt',
    'pem',
    'README.md',
    '\uFF0Eenv',
    '.\uFF45nv',
    '',
    '...',
  ])('%j is not protected', (name) => {
    expect(isProtectedName(name)).toBe(false);
  });

  it('a custom policy is used as given', () => {
    const policy = { names: ['Secrets.json'], patterns: ['*.vault'], allow: ['demo.vault'] };
    expect(isProtectedName('secrets.JSON', policy)).toBe(true);
    expect(isProtectedName('prod.vault', policy)).toBe(true);
    expect(isProtectedName('demo.vault', policy)).toBe(false);
    expect(isProtectedName('.env', policy)).toBe(false);
    expect(DEFAULT_PROTECTED.allow).toContain('.env.example');
  });
});

describe('protected names', () => {
  it.each([
    '.env',
    '.ENV',
    '.env.',
    '.env ',
    '.env.local',
    'sub/.env.production',
    'ID_RSA',
    'keys/server.PEM',
    '.npmrc',
  ])('%j is protected for read and write', async (name) => {
    f.write(name, 'SECRET');
    expect(await code(name)).toBe('protected_path');
    expect(await code(name, 'write')).toBe('protected_path');
  });

  it('a protected directory component is refused too', async () => {
    expect(await code('.env/config', 'write')).toBe('protected_path');
  });

  it('the real path is checked: a link into a protected name via an intermediate link', async () => {
    mkdirSync(f.path('.env.d'), { recursive: true });
    f.write('.env.d/x.txt', 'SECRET');
    symlinkSync('.env.d', f.path('innocent'));
    expect(await code('innocent/x.txt')).toBe('protected_path');
  });

  it('allow-listed templates and look-alikes are readable; look-alikes do not escape', async () => {
    expect(await code('.env.example')).toBe('ok');
    f.write('\uFF0Eenv', 'fullwidth dot');
    expect(await code('\uFF0Eenv')).toBe('ok');
    expect(await code('\uFF0E\uFF0E/ws-evil/secret.txt')).toBe('not_found');
    expect(await code('src\u2215..\u2215..\u2215ws-evil')).toBe('not_found');
  });

  it('writes inside .git are refused, reads are not', async () => {
    f.write('.git/config', '[core]');
    expect(await code('.git/hooks/pre-commit', 'write')).toBe('protected_path');
    expect(await code('.GIT/hooks/post-checkout', 'write')).toBe('protected_path');
    expect(await code('sub/.git/config', 'write')).toBe('protected_path');
    expect(await code('.git', 'write')).toBe('protected_path');
    expect(await code('.git/config')).toBe('ok');
  });

  it('a custom policy replaces the defaults', async () => {
    const ws = await Workspace.open(f.root, { protectedNames: { names: ['secret.txt'], patterns: [], allow: [] } });
    f.write('.env', 'E');
    f.write('secret.txt', 'S');
    expect((await ws.resolve('.env', 'read')).success).toBe(true);
    expect(await ws.resolve('secret.txt', 'read')).toMatchObject({ error_code: 'protected_path' });
    expect(ws.isProtected('a/secret.txt')).toBe(true);
    expect(f.ws.isProtected('deep/.env.local')).toBe(true);
    expect(f.ws.isProtected('deep/env.local')).toBe(false);
  });
});
