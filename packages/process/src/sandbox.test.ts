import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProcess } from './run-process.js';
import { openSandbox, sandboxSupport } from './sandbox.js';

let tree: TempWorkspace;
beforeEach(() => {
  tree = makeWorkspace();
});
afterEach(() => tree.cleanup());

describe('sandbox modes without bubblewrap', () => {
  const missing = { bwrapPath: '/nonexistent/bwrap' };

  it('reports why the sandbox is unavailable', () => {
    expect(sandboxSupport('/nonexistent/bwrap')).toMatchObject({
      available: false,
      reason: expect.stringMatching(/ENOENT/),
    });
  });

  it('required refuses with sandbox_unavailable and runs nothing', () => {
    expect(openSandbox(tree.root, { mode: 'required', ...missing })).toMatchObject({
      success: false,
      error_code: 'sandbox_unavailable',
    });
  });

  it('auto falls back to a plain run and says so', async () => {
    const session = openSandbox(tree.root, { mode: 'auto', ...missing });
    if (!('wrap' in session)) throw new Error('auto must not refuse');
    expect(session.sandboxed).toBe(false);
    expect(session.note).toMatch(/not available/);
    const result = await runProcess(['true'], { workspaceRoot: tree.root, wrap: session.wrap });
    expect(result).toMatchObject({ success: true, return_code: 0 });
  });

  it('auto with deny rules refuses instead of running without them', () => {
    expect(openSandbox(tree.root, { mode: 'auto', denyRead: ['secrets/**'], ...missing })).toMatchObject({
      success: false,
      error_code: 'sandbox_unavailable',
    });
  });

  it('off never looks for bubblewrap', () => {
    expect(openSandbox(tree.root, { mode: 'off', ...missing })).toMatchObject({ sandboxed: false });
  });
});

const support = sandboxSupport();
if (!support.available) console.warn(`SKIPPED sandboxed runProcess test: ${support.reason}`);

describe.skipIf(!support.available)('runProcess inside the sandbox', () => {
  it('runs the program in the workspace with a private /tmp and its own PID namespace', async () => {
    const session = openSandbox(tree.root, { mode: 'required' });
    if (!('wrap' in session)) throw new Error(session.error);
    expect(session.sandboxed).toBe(true);
    const result = await runProcess(['sh', '-c', 'pwd; ls -A /tmp | wc -l; echo $$'], {
      workspaceRoot: tree.root,
      wrap: session.wrap,
    });
    expect(result).toMatchObject({ success: true, return_code: 0 });
    const [cwd, tmpEntries, pid] = (result as { stdout: string }).stdout.trim().split('\n');
    expect(cwd).toBe(tree.root);
    // /tmp holds only the mount points leading to the workspace (the workspace itself lives under the host's /tmp).
    expect(Number(tmpEntries)).toBeLessThanOrEqual(1);
    expect(Number(pid)).toBeLessThan(10);
  });
});
