import { describe, expect, it } from 'vitest';
import { PERMISSION_PRESETS, type PermissionPolicy } from './permission-policy.js';
import { evaluatePermission, permissionHook } from './permissions.js';

/** A permissive policy with a deny list: the case where a bypass would actually run the command. */
const guarded: PermissionPolicy = {
  name: 'guarded',
  allow: { '*': ['*'] },
  deny: { bash: ['rm *', 'rm', 'git push*', 'curl *'] },
};
const decide = (policy: PermissionPolicy, command: string) => evaluatePermission(policy, 'bash', { command }).decision;

describe('deny rules cannot be bypassed by how a command is spelled', () => {
  it.each([
    // quoting and escaping
    "'rm' -rf x",
    '"rm" -rf x',
    'r""m -rf x',
    'r\\m -rf x',
    // absolute and relative program paths
    '/bin/rm -rf x',
    '/usr/bin/../bin/rm -rf x',
    './rm x',
    // launchers, including options that take a value
    'env -u HOME rm -rf x',
    'env -i PATH=/bin rm x',
    'timeout -s KILL 10 rm x',
    'nice -n 19 rm x',
    'sudo -u root rm x',
    'xargs -I {} rm {}',
    'busybox rm x',
    'command -p rm x',
    'flock /tmp/l rm x',
    'env env env rm x',
    // a shell given a script with -c, alone or in an option group, after a launcher, nested
    "sh -c 'rm -rf x'",
    'bash -c "rm -rf x"',
    "/bin/sh -c 'rm x'",
    "bash -lc 'rm x'",
    "bash -e -c 'rm x'",
    "bash -o pipefail -c 'rm x'",
    "env sh -c 'rm x'",
    "xargs sh -c 'rm x'",
    "sh -c 'ls; rm x'",
    "sh -c 'ls && rm x'",
    "sh -c 'ls | rm x'",
    "sh -c 'true\nrm x'",
    "sh -c 'echo $(rm x)'",
    "sh -c 'if true; then rm x; fi'",
    "sh -c 'eval rm x'",
    'sh -c "sh -c \'rm x\'"',
    "sh -c 'rm x > /dev/null 2>&1'",
    "su -c 'rm x'",
    // find running a program for each match
    'find . -name "*.o" -exec rm {} \\;',
    'find . -execdir /bin/rm {} +',
    // other deny entries
    "sh -c 'git push --force'",
    'env GIT_DIR=x git push',
    "bash -c 'curl https://example.invalid'",
  ])('denies %j', (command) => {
    expect(decide(guarded, command)).toBe('deny');
  });

  it.each([
    "sh -c 'R=rm; $R -rf x'",
    "sh -c '$0 -rf x'",
    "sh -c '/bin/r? -rf x'",
    "sh -c 'echo `whoami`'",
    'sh -c "echo \\"open"',
    'bash -c \'for f in *; do "$f"; done\'',
  ])('escalates %j (a script it cannot see into) instead of allowing it', (command) => {
    const verdict = evaluatePermission(guarded, 'bash', { command });
    expect(verdict.decision).toBe('ask');
    expect(verdict.opaque).toBe(true);
  });

  it('refuses an escalated opaque script when no approver is configured, and says why', async () => {
    const hook = permissionHook(guarded);
    const verdict = (await hook({ tool: { name: 'bash' } as never, callId: 'c', args: { command: "sh -c '$X'" } })) as {
      decision: string;
      reason: string;
    };
    expect(verdict.decision).toBe('deny');
    expect(verdict.reason).toContain('cannot all be checked');
  });

  it('leaves ordinary commands and readable scripts alone', () => {
    for (const command of ['ls -la', 'git status', "sh -c 'ls -la; git status'", 'grep -rn "rm -rf" src']) {
      expect(decide(guarded, command), command).toBe('allow');
    }
    // without deny rules an opaque script is not escalated (allow_all means allow all)
    expect(decide(PERMISSION_PRESETS.allow_all, "sh -c '$X'")).toBe('allow');
    expect(decide(PERMISSION_PRESETS.deny_all, "sh -c 'ls'")).toBe('deny');
  });

  it('the safe preset refuses a shell-wrapped destructive command without asking', async () => {
    let asked = false;
    const hook = permissionHook(PERMISSION_PRESETS.safe, () => {
      asked = true;
      return true;
    });
    for (const command of ["sh -c 'rm -rf .'", "bash -c 'sudo ls'", 'env -u X chmod 777 f', "sh -c 'git push'"]) {
      const verdict = (await hook({ tool: { name: 'bash' } as never, callId: 'c', args: { command } })) as {
        decision: string;
      };
      expect(verdict.decision, command).toBe('deny');
    }
    expect(asked).toBe(false);
  });

  it('an allow rule matches only the literal command, never a form seen through a wrapper', () => {
    const policy: PermissionPolicy = { allow: { bash: ['ls *', 'git status'] } };
    expect(decide(policy, 'ls -la')).toBe('allow');
    expect(decide(policy, "sh -c 'ls -la'")).toBe('deny');
    expect(decide(policy, 'env git status')).toBe('deny');
    expect(decide(policy, '/tmp/x/ls -la')).toBe('deny');
  });

  it('counts a command beyond the analysis limits as opaque, never as allowed', () => {
    const nested = 'sh -c "sh -c \'ls\'"';
    expect(evaluatePermission(guarded, 'bash', { command: nested }).decision).toBe('allow');
    expect(evaluatePermission(guarded, 'bash', { command: nested }, { permissionScriptDepth: 1 })).toMatchObject({
      decision: 'ask',
      opaque: true,
    });
    expect(
      evaluatePermission(guarded, 'bash', { command: 'env a b c d e f ls' }, { permissionMaxForms: 3 }).decision,
    ).toBe('ask');
  });
});
