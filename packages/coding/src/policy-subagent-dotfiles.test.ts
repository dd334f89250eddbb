import { join } from 'node:path';
import { type ChatMessage, ScriptedChatModel, textReply, toolCallReply } from '@bough/core';
import type { PermissionPolicy } from '@bough/policy';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

// A parent that hides dotfiles below the top level (`**/.*`: the policy's `*` crosses `/`, but the `/` must be there)
// with a subagent: the rule, rebased onto the child's cwd, still hides the dotfiles there (`sub/.cfg` is one), and
// never names the child's root itself, so its whole-tree calls run.
const CANARY = 'DOTFILE-CANARY';
const PARENT: PermissionPolicy = { allow: { '*': ['*'] }, deny: { '*': ['**/.*'] } };

let ws: TempWorkspace;
beforeAll(() => {
  const files: Record<string, string> = { 'sub/.cfg/settings': `${CANARY}\n` };
  for (const at of ['', 'sub/']) {
    files[`${at}.env`] = `TOKEN=${CANARY}\n`;
    files[`${at}src/.cache`] = `${CANARY}\n`;
    files[`${at}src/a.py`] = 'needle = 1\n';
  }
  ws = makeWorkspace(files);
});
afterAll(() => ws.cleanup());

const WHOLE: readonly (readonly [string, Record<string, unknown>])[] = [
  ['search', { action: 'grep', pattern: `needle|${CANARY}` }],
  ['search', { action: 'grep', pattern: `needle|${CANARY}`, path: '.' }],
  ['search', { action: 'find', pattern: '*' }],
  ['reader', { action: 'list_dir', path: '.' }],
  ['reader', { action: 'list_dir', path: '.', recursive: true }],
];

/** What each call of one subagent (cwd `cwd`) answered, as its model saw it. */
async function inChild(cwd: string) {
  const steps = WHOLE.map(([name, args]) => toolCallReply([{ name, arguments: args }]));
  const model = new ScriptedChatModel([...steps, textReply('done')]);
  const tools = ['reader', 'search', 'subagent'];
  const branch = toolkitBranch(ws.root, { tools, permissions: PARENT, notify: false, diagnostics: false }, { model });
  const out = await call(branch, 'subagent', { instruction: 'look', cwd, max_turns: WHOLE.length + 1 });
  expect(out, JSON.stringify(out)).toMatchObject({ success: true, tool_calls: WHOLE.length });
  const last = model.requests.at(-1)?.messages ?? [];
  return last.filter((m: ChatMessage) => m.role === 'tool').map((m) => String(m.content));
}

describe.each([
  ['at the root', '.'],
  ['in a subdirectory', 'sub'],
])('a subagent %s under a parent that hides dotfiles', (_where, cwd) => {
  it('greps, finds and lists the whole tree without showing a dotfile', async () => {
    const answers = await inChild(cwd);
    answers.forEach((text, i) => {
      const what = `${JSON.stringify(WHOLE[i])}: ${text}`;
      expect(text, what).not.toMatch(/refuses|"denied"/);
      expect(text, what).toMatch(/a\.py|src\//);
      expect(text, what).not.toContain(CANARY);
      expect(text, what).not.toMatch(/\.env|\.cfg|\.cache/);
    });
  });
});

it('shows the dotfiles without the rule (so the rows above can fail)', async () => {
  const branch = toolkitBranch(join(ws.root, 'sub'), { tools: ['search'], notify: false, diagnostics: false });
  expect(JSON.stringify(await call(branch, 'search', WHOLE[0]?.[1] ?? {}))).toContain(CANARY);
});

// `.*` (every name starting with a dot, and what lies under it: the policy's `*` crosses `/`) written to hide the
// top-level dotfiles: the root `.` is not such a name, so whole-tree calls of the toolkit itself still run.
describe('a toolkit whose policy hides top-level dotfiles with .*', () => {
  const HIDE_ALL: PermissionPolicy = { allow: { '*': ['*'] }, deny: { '*': ['.*', '**/.*'] } };
  it.each(WHOLE.map(([name, args]) => [`${name} ${JSON.stringify(args)}`, name, args] as const))(
    '%s runs and shows no dotfile',
    async (_label, name, args) => {
      const branch = toolkitBranch(ws.root, { tools: ['reader', 'search'], permissions: HIDE_ALL, notify: false });
      const text = JSON.stringify(await call(branch, name, args));
      expect(text).not.toMatch(/refuses|"denied"/);
      expect(text).toMatch(/a\.py|src\//);
      expect(text).not.toContain(CANARY);
      expect(text).not.toMatch(/\.env|\.cfg|\.cache/);
    },
  );
  it('still refuses a dotfile named directly', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['reader'], permissions: HIDE_ALL, notify: false });
    expect(await call(branch, 'reader', { action: 'read', path: '.env' })).toMatchObject({ success: false });
  });
});
