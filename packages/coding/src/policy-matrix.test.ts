import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedChatModel, textReply, toolCallReply } from '@bough/core';
import type { PermissionPolicy } from '@bough/policy';
import type { TempWorkspace } from '@bough/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { CANARY, DENY_SECRETS, patch, ROUTES, secretsWorkspace, WHOLE } from '../test/policy-routes.js';
import { ALL_CODING_TOOLS } from './toolkit.js';

// One path rule, every tool and action: each route to `secrets/` is refused before its handler runs, and a search of
// the whole workspace shows nothing under it.
const OPEN: PermissionPolicy = { allow: { '*': ['*'] } };

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

function workspace(): TempWorkspace {
  ws = secretsWorkspace();
  return ws;
}

function branchFor(root: string, permissions: PermissionPolicy) {
  const model = new ScriptedChatModel(Array.from({ length: 5 }, () => textReply('done')));
  return toolkitBranch(
    root,
    { tools: [...ALL_CODING_TOOLS], permissions, notify: false, diagnostics: false },
    { model },
  );
}

/** Every file under `secrets/` with its content, to prove nothing there changed. */
function snapshot(root: string): Record<string, string> {
  const dir = join(root, 'secrets');
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

describe('a path rule binds every tool and action', () => {
  it('refuses every route into secrets/ before it runs: nothing is written or shown', async () => {
    const { root } = workspace();
    const before = snapshot(root);
    const branch = branchFor(root, DENY_SECRETS);
    for (const [tool, args] of ROUTES) {
      const out = await call(branch, tool, args(ws as TempWorkspace));
      expect(out, `${tool} ${JSON.stringify(args(ws as TempWorkspace))}`).toMatchObject({ error_code: 'denied' });
      expect(JSON.stringify(out)).not.toContain(CANARY);
    }
    expect(snapshot(root)).toEqual(before);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('note\n');
    for (const [tool, args] of WHOLE) {
      const out = await call(branch, tool, args);
      expect(out, tool).toMatchObject({ success: true });
      expect(JSON.stringify(out), tool).not.toMatch(/secrets\/|TOP-SECRET/);
    }
  });

  it('lets every one of those routes reach its tool without the rule (so each row above can fail)', async () => {
    const { root } = workspace();
    const branch = branchFor(root, OPEN);
    for (const [tool, args] of ROUTES) {
      const out = await call(branch, tool, args(ws as TempWorkspace));
      expect(out.error_code, `${tool} ${JSON.stringify(args(ws as TempWorkspace))}`).not.toBe('denied');
    }
    // And without it, each whole-workspace row does show something under secrets/.
    for (const [tool, args] of WHOLE.filter(([tool]) => tool !== 'jobs')) {
      expect(JSON.stringify(await call(branch, tool, args)), `${tool} ${JSON.stringify(args)}`).toContain('secrets/');
    }
    await branchJobsDone(branch);
  });

  it("closes the measured hole: editor rules see a patch's files and a move's target", async () => {
    const { root } = workspace();
    const policy: PermissionPolicy = { allow: { editor: ['*'] }, deny: { editor: ['secrets/*'] } };
    const branch = toolkitBranch(root, { tools: ['editor', 'reader'], permissions: policy, notify: false });
    const added = await call(branch, 'editor', { action: 'patch', patch: patch('*** Add File: secrets/k.txt', '+k') });
    expect(added).toMatchObject({ error_code: 'denied' });
    expect(added.error).toContain('"secrets/k.txt"');
    const moved = await call(branch, 'editor', { action: 'move', file_path: 'notes.txt', destination: 'secrets/n' });
    expect(moved).toMatchObject({ error_code: 'denied' });
    const plain = await call(branch, 'editor', { action: 'patch', patch: patch('*** Add File: ok.txt', '+k') });
    expect(plain).toMatchObject({ success: true });
    expect(snapshot(root)).toEqual({
      'key.txt': `${CANARY}\n`,
      'page.html': `<p>${CANARY}</p>`,
      's.py': expect.any(String),
    });
  });
});

/** Kills what the open run started in the background (the `sleep` job). */
async function branchJobsDone(branch: ReturnType<typeof branchFor>): Promise<void> {
  const list = await call(branch, 'jobs', { action: 'list' });
  for (const job of (list.jobs as { job_id: string }[] | undefined) ?? []) {
    await call(branch, 'jobs', { action: 'kill', job_id: job.job_id });
  }
}

describe("a subagent's calls are bound by its parent's deny rules", () => {
  it('refuses a path the parent may not touch, from the root or from a cwd below it', async () => {
    const { root } = workspace();
    (ws as TempWorkspace).write('src/private/p.txt', `${CANARY}\n`);
    const policy: PermissionPolicy = { allow: { '*': ['*'] }, deny: { '*': ['secrets/**', 'src/private/**'] } };
    const read = (path: string) => toolCallReply([{ name: 'reader', arguments: { action: 'read', path } }]);
    const model = new ScriptedChatModel([
      read('secrets/key.txt'),
      textReply('done'),
      read('private/p.txt'),
      textReply('done'),
    ]);
    const branch = toolkitBranch(root, { tools: ['subagent'], permissions: policy, notify: false }, { model });
    for (const cwd of ['.', 'src']) {
      const out = await call(branch, 'subagent', { instruction: 'read it', cwd });
      expect(out, cwd).toMatchObject({ success: true });
    }
    // What the child's reader answered is what the model saw next: refusals, never the secret.
    const seen = JSON.stringify(model.requests.map((request) => request.messages));
    expect(seen).not.toContain(CANARY);
    expect(seen.match(/policy 'read_only with the parent's deny rules' refuses reader/g)?.length).toBe(2);
  });
});
