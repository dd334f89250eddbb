import { defineTool, type PreHook } from '@bough/core';
import {
  evaluatePermission,
  genericSubject,
  literalSubject,
  type PermissionPolicy,
  type PermissionSubjectDescriber,
  permissionSubject,
  STANDARD_PERMISSION_SUBJECTS,
} from '@bough/policy';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, toolkitBranch } from '../test/helpers.js';
import { NO_EVIDENCE } from './source-evidence.js';
import { STANDARD_SOURCES, type ToolSource } from './tool-sources.js';
import type { SourceGuardSettings } from './toolkit-build.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'src/a.py': 'x = 1\n' });
});
afterEach(() => ws.cleanup());

/** A checker of its own: one request field names the file, another the level; only the file is the subject. */
const LintRequest = z.object({ level: z.string(), target: z.string() }).strict();
type LintRequest = z.infer<typeof LintRequest>;
const targetOnly: PermissionSubjectDescriber = (args) => literalSubject(String(args.target ?? ''));
function lintSource(
  describe?: PermissionSubjectDescriber,
  touches?: boolean,
): ToolSource<object, LintRequest, { success: true }> {
  return {
    name: 'code_check',
    scope: 'workspace',
    evidence: NO_EVIDENCE,
    ...(describe ? { permissionSubject: describe } : {}),
    make: () =>
      defineTool({
        name: 'code_check',
        description: 'Test checker: always clean.',
        request: LintRequest,
        handler: async () => ({ success: true as const }),
        ...(touches ? { touches: (request: LintRequest) => ({ read: [request.target] }) } : {}),
      }),
  };
}
const onlySrc: PermissionPolicy = { allow: { code_check: ['src/*'] } };

describe('a source says what its permission rules are matched against', () => {
  it("a custom source's rules see the subject its own describer gives", async () => {
    const branch = toolkitBranch(
      ws.root,
      { tools: ['code_check'], permissions: onlySrc },
      { sources: [lintSource(targetOnly)] },
    );
    expect(await call(branch, 'code_check', { level: 'strict', target: 'src/a.py' })).toMatchObject({ success: true });
    const refused = await call(branch, 'code_check', { level: 'strict', target: 'lib/b.py' });
    expect(refused).toMatchObject({ success: false, error_code: 'denied' });
    expect(refused.error).toContain('"lib/b.py"');
  });

  it('without a describer, the rules are matched against the paths its tool declares it touches', async () => {
    const source = lintSource(undefined, true);
    const branch = toolkitBranch(ws.root, { tools: ['code_check'], permissions: onlySrc }, { sources: [source] });
    expect(await call(branch, 'code_check', { level: 'strict', target: 'src/a.py' })).toMatchObject({ success: true });
    // Paths are matched relative to the root, however they are written.
    const absolute = await call(branch, 'code_check', { level: 'strict', target: `${ws.root}/src/a.py` });
    expect(absolute).toMatchObject({ success: true });
    const refused = await call(branch, 'code_check', { level: 'strict', target: 'src/../lib/b.py' });
    expect(refused).toMatchObject({ success: false, error_code: 'denied' });
    expect(refused.error).toContain('"lib/b.py"');
  });

  it('a tool with neither a describer nor a touches declaration cannot be given a path rule: refused at setup', () => {
    expect(() =>
      toolkitBranch(ws.root, { tools: ['code_check'], permissions: onlySrc }, { sources: [lintSource()] }),
    ).toThrow(/allow rule "src\/\*" applies to the tool code_check, which does not declare what its requests touch/);
    // A catch-all rule needs no paths, so it is kept.
    const all: PermissionPolicy = { allow: { code_check: ['*'] } };
    expect(() =>
      toolkitBranch(ws.root, { tools: ['code_check'], permissions: all }, { sources: [lintSource()] }),
    ).not.toThrow();
  });

  it('evaluatePermission takes a describer, and by name alone uses the standard one', () => {
    const args = { level: 'strict', target: 'src/a.py' };
    expect(evaluatePermission(onlySrc, 'code_check', args).decision).toBe('deny');
    expect(evaluatePermission(onlySrc, 'code_check', args, undefined, { describe: targetOnly })).toMatchObject({
      decision: 'allow',
      subject: 'src/a.py',
    });
    expect(permissionSubject('code_check', args, {}, targetOnly).literal).toBe('src/a.py');
    expect(permissionSubject('code_check', args).literal).toBe(genericSubject(args, {}).literal);
  });

  it('every standard source declares the standard describer of its name (or none, for the generic one)', () => {
    for (const source of STANDARD_SOURCES) {
      expect(source.permissionSubject, source.name).toBe(STANDARD_PERMISSION_SUBJECTS[source.name]);
    }
    expect(Object.keys(STANDARD_PERMISSION_SUBJECTS).sort()).toEqual(['bash', 'subagent']);
  });

  it("bash's describer gives deny rules every form the command could run as", () => {
    const subject = permissionSubject('bash', { command: "env  sh -c '/bin/rm -rf x'" });
    expect(subject.literal).toBe("env sh -c '/bin/rm -rf x'");
    expect(subject.forms).toContain('rm -rf x');
  });
});

describe("a source's guard runs before the permission policy", () => {
  const seen: SourceGuardSettings[] = [];
  const noLib = (settings: SourceGuardSettings): PreHook => {
    seen.push(settings);
    return ({ args }) =>
      String((args as { target?: unknown }).target).startsWith('lib/')
        ? { decision: 'deny', reason: 'lib is off limits' }
        : undefined;
  };
  const guarded = (
    sandboxed?: (options: { mode?: string }) => boolean,
  ): ToolSource<{ mode?: string }, LintRequest> => ({
    ...lintSource(targetOnly),
    options: (settings) => ({ mode: settings.commandSandbox ?? 'off' }),
    guard: noLib,
    ...(sandboxed ? { sandboxed } : {}),
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it('is built with the toolkit settings and refuses before the policy would allow', async () => {
    const allowAll: PermissionPolicy = { allow: { '*': ['*'] } };
    const onAsk = () => true;
    const branch = toolkitBranch(
      ws.root,
      { tools: ['code_check'], permissions: allowAll, onAsk },
      { sources: [guarded()] },
    );
    expect(await call(branch, 'code_check', { level: 'x', target: 'src/a.py' })).toMatchObject({ success: true });
    const refused = await call(branch, 'code_check', { level: 'x', target: 'lib/b.py' });
    expect(refused).toMatchObject({ success: false, error_code: 'denied' });
    expect(refused.error).toContain('lib is off limits');
    // a custom policy ranks as read_only, so the guard is told to refuse rather than ask
    expect(seen).toEqual([{ protectedNames: undefined, decision: 'deny', onAsk, sandboxed: false }]);
  });

  it("is told whether the source's calls run sandboxed, from the source's own options", async () => {
    toolkitBranch(
      ws.root,
      { tools: ['code_check'], commandSandbox: 'required' },
      { sources: [guarded((options) => options.mode === 'required')] },
    );
    expect(seen).toMatchObject([{ decision: 'ask', sandboxed: true }]);
  });

  it('the standard bash source brings the protected-path guard; no other standard source has one', () => {
    const withGuard = STANDARD_SOURCES.filter((source) => source.guard).map((source) => source.name);
    expect(withGuard).toEqual(['bash']);
  });
});
