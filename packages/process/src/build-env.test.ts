import { describe, expect, it } from 'vitest';
import { buildEnv, isSecretEnvName } from './build-env.js';

describe('buildEnv', () => {
  it('copies only allow-listed names and adds non-interactive defaults', () => {
    const env = buildEnv({ baseEnv: { PATH: '/bin', LC_ALL: 'C', NODE_OPTIONS: '--inspect', PAGER: 'less' } });
    expect(env).toMatchObject({ PATH: '/bin', LC_ALL: 'C', PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' });
    expect(env.NODE_OPTIONS).toBeUndefined();
  });

  it.each([
    'FOO_TOKEN',
    'github_token',
    'AWS_SECRET_ACCESS_KEY',
    'NPM_AUTH',
    'PGPASSWORD',
    'MY_PASSWD',
    'GPG_PASSPHRASE',
  ])('drops %s even when it is allow-listed', (name) => {
    expect(isSecretEnvName(name)).toBe(true);
    expect(buildEnv({ baseEnv: { [name]: 'canary' }, inheritEnv: [name] })[name]).toBeUndefined();
  });

  it('drops values that look like credentials whatever their name', () => {
    const baseEnv = { LC_A: 'ghp_abcdefghijklmnopqrstuvwxyz0123', LC_B: 'AKIAABCDEFGHIJKLMNOP', LC_C: 'en_US.UTF-8' };
    expect(buildEnv({ baseEnv })).toMatchObject({ LC_C: 'en_US.UTF-8' });
    expect(buildEnv({ baseEnv }).LC_A).toBeUndefined();
    expect(buildEnv({ baseEnv }).LC_B).toBeUndefined();
  });

  it('lets explicit variables override everything, and skips unusable ones', () => {
    const env = buildEnv({ baseEnv: {}, env: { PAGER: 'more', API_TOKEN: 'given', 'A=B': 'x', NUL: 'a\0b' } });
    expect(env).toMatchObject({ PAGER: 'more', API_TOKEN: 'given' });
    expect(env['A=B']).toBeUndefined();
    expect(env.NUL).toBeUndefined();
  });

  it('keeps TERM from the parent and falls back to dumb', () => {
    expect(buildEnv({ baseEnv: { TERM: 'xterm' } }).TERM).toBe('xterm');
    expect(buildEnv({ baseEnv: {} }).TERM).toBe('dumb');
  });
});
