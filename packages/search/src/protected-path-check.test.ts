import { describe, expect, it } from 'vitest';
import { isProtectedPath, ProtectedPathCheck } from './internal/rg-common.js';

describe('ProtectedPathCheck', () => {
  it('answers exactly as isProtectedPath, directory verdicts remembered or not', () => {
    const paths = [
      'a.py',
      'src/a.py',
      'src/.env',
      'src/.ENV.',
      '.env.example',
      'keys/id_rsa/readme.md',
      'keys/id_rsa/readme.md',
      'keys/ok.txt',
      'certs/x.PEM',
      'certs/x.pem/inside.txt',
      'deep/er/still/fine.txt',
      'deep/er/.netrc/x',
      'trailing/',
      '',
      '/abs/.npmrc',
      'a//b/.pypirc',
    ];
    const check = new ProtectedPathCheck();
    for (const path of [...paths, ...paths]) expect(check.test(path), path).toBe(isProtectedPath(path));
    const policy = { names: ['secret'], patterns: ['*.sec'], allow: ['ok.sec'] };
    const custom = new ProtectedPathCheck(policy);
    for (const path of ['secret/a', 'a/SECRET', 'b/ok.sec', 'b/no.sec/c', 'b/c']) {
      expect(custom.test(path), path).toBe(isProtectedPath(path, policy));
    }
  });

  it('stays right past the number of directories it remembers', () => {
    const check = new ProtectedPathCheck();
    for (let i = 0; i < 5000; i++) {
      expect(check.test(`d${i}/f.txt`)).toBe(false);
      expect(check.test(`d${i}/.env`)).toBe(true);
    }
    expect(check.test('d0/id_ed25519/x')).toBe(true);
    expect(check.test('d0/f.txt')).toBe(false);
  });
});
