import { readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type ChatMessage, ScriptedChatModel, textReply, toolCallReply } from '@bough/core';
import type { PermissionPolicy } from '@bough/policy';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

// A subagent's whole-tree operations, named paths, links and absolute paths under its parent's deny rules: the child's
// own policy holds those rules (rebased onto its cwd), so its answers are exactly what a toolkit rooted where the
// child works, under the same rules spelled from there, answers, and none shows the canary.
const CANARY = 'SUBAGENT-SECRET-CANARY';
const PARENT: PermissionPolicy = { allow: { '*': ['*'] }, deny: { '*': ['secrets/**', 'sub/secrets/**'] } };
const TOOLS = ['reader', 'search', 'code_nav', 'code_check', 'ast_search', 'bash'];

let ws: TempWorkspace;
beforeAll(() => {
  const files: Record<string, string> = { 'notes.txt': 'note\n' };
  for (const at of ['', 'sub/']) {
    files[`${at}secrets/key.txt`] = `${CANARY}\n`;
    files[`${at}secrets/s.py`] = `def leak():\n    print("${CANARY}")\n`;
    files[`${at}src/b.py`] = 'from secrets.s import leak\n\nleak()\nprint(1)\n';
  }
  ws = makeWorkspace(files);
  symlinkSync(join(ws.root, 'secrets'), join(ws.root, 'pub'));
  symlinkSync('secrets', join(ws.root, 'sub', 'pub'));
});
afterAll(() => ws.cleanup());

/** Operations over the whole tree the child works in: each runs and must answer as the reference toolkit does. */
const WHOLE: readonly (readonly [string, Record<string, unknown>])[] = [
  ['search', { action: 'grep', pattern: 'CANARY' }],
  ['search', { action: 'grep', pattern: 'CANARY', path: '.' }],
  ['search', { action: 'find', pattern: '*' }],
  ['search', { action: 'find', pattern: '*.py', path: '.' }],
  ['ast_search', { pattern: 'print($A)' }],
  ['ast_search', { pattern: 'print($A)', path: '.' }],
  ['code_nav', { action: 'find_references', symbol: 'leak', path: '.' }],
  ['code_nav', { action: 'find_definition', symbol: 'leak' }],
  ['code_nav', { action: 'outline' }],
  ['code_nav', { action: 'rename', symbol: 'leak', new_name: 'gone' }],
  ['code_check', {}],
  ['code_check', { paths: ['.'] }],
  ['reader', { action: 'list_dir', path: '.' }],
  ['reader', { action: 'list_dir', path: '.', recursive: true }],
];

/** Named routes to the denied directory (relative to where the child works); each is refused. */
const NAMED = (root: string): readonly (readonly [string, Record<string, unknown>])[] => [
  ['reader', { action: 'read', path: 'secrets/key.txt' }],
  ['reader', { action: 'read', path: 'pub/key.txt' }],
  ['reader', { action: 'read', path: join(root, 'secrets', 'key.txt') }],
  ['reader', { action: 'list_dir', path: 'pub' }],
  ['search', { action: 'grep', pattern: 'CANARY', path: 'pub' }],
  ['search', { action: 'grep', pattern: 'CANARY', path: join(root, 'secrets') }],
  ['search', { action: 'find', pattern: '*', path: 'secrets' }],
  ['ast_search', { pattern: 'print($A)', path: 'pub' }],
  ['code_nav', { action: 'outline', path: 'pub/s.py' }],
  ['code_check', { paths: ['src/b.py', 'secrets/s.py'] }],
  ['bash', { command: 'cat key.txt', cwd: 'secrets' }],
];

/** Runs `calls` in one subagent (cwd `cwd`) and returns what each of them answered, as its model saw it. */
async function inChild(cwd: string, calls: readonly (readonly [string, Record<string, unknown>])[]) {
  const steps = calls.map(([name, args]) => toolCallReply([{ name, arguments: args }]));
  const model = new ScriptedChatModel([...steps, textReply('done')]);
  const branch = toolkitBranch(
    ws.root,
    { tools: [...TOOLS, 'subagent'], permissions: PARENT, notify: false, diagnostics: false },
    { model },
  );
  const out = await call(branch, 'subagent', { instruction: 'look', cwd, max_turns: calls.length + 1 });
  expect(out, JSON.stringify(out)).toMatchObject({ success: true, tool_calls: calls.length });
  const last = model.requests.at(-1)?.messages ?? [];
  return last.filter((m: ChatMessage) => m.role === 'tool').map((m) => String(m.content));
}

/** What a toolkit rooted at `root` under `policy` answers for each call (as the model would be shown it). */
async function reference(root: string, policy: PermissionPolicy, calls: typeof WHOLE) {
  const branch = toolkitBranch(root, { tools: TOOLS, permissions: policy, notify: false, diagnostics: false });
  const out: string[] = [];
  for (const [tool, args] of calls) out.push(JSON.stringify(await call(branch, tool, args)));
  return out;
}

/** Answers with the figures that change from run to run (timings) taken out. */
const steady = (texts: readonly string[]) =>
  texts.map((text) => text.replace(/"(elapsed|duration)_ms":\d+,?/g, '').replace(/\d+(\.\d+)? ?ms\b/g, 'N ms'));

describe.each([
  ['at the root', '.', () => ws.root, PARENT],
  // The parent's rule `sub/secrets/**` is `secrets/**` from where the child works; `secrets/**` lies outside it.
  ['in a subdirectory', 'sub', () => join(ws.root, 'sub'), { allow: { '*': ['*'] }, deny: { '*': ['secrets/**'] } }],
] as const)("a subagent %s meets its parent's deny rules", (_where, cwd, root, equivalent) => {
  it('answers every whole-tree operation as a toolkit under the same rules there does, without the canary', async () => {
    const child = await inChild(cwd, WHOLE);
    child.forEach((text, i) => {
      expect(text, JSON.stringify(WHOLE[i])).not.toContain(CANARY);
      expect(text, JSON.stringify(WHOLE[i])).not.toMatch(/secrets\//);
    });
    expect(steady(child)).toEqual(steady(await reference(root(), equivalent as PermissionPolicy, WHOLE)));
  });

  it('refuses every named route, link and absolute path into the denied directory', async () => {
    const named = NAMED(root());
    const child = await inChild(cwd, named);
    child.forEach((text, i) => {
      // A link as the last component is refused whatever it points at; every other route meets the rule.
      expect(text, JSON.stringify(named[i])).toMatch(/refuses|"denied"|"symlink_rejected"/);
      expect(text, JSON.stringify(named[i])).not.toContain(CANARY);
    });
  });

  it('finds the canary without the rules (so the rows above can fail)', async () => {
    const open = await reference(root(), { allow: { '*': ['*'] } }, WHOLE.slice(0, 1));
    expect(open[0]).toContain(CANARY);
  });
});

describe("a subagent's cwd under its parent's rules", () => {
  it('is refused inside the denied directory or through a link to it; nothing there changes', async () => {
    const model = new ScriptedChatModel([textReply('done')]);
    const branch = toolkitBranch(ws.root, { tools: ['subagent'], permissions: PARENT, notify: false }, { model });
    for (const cwd of ['secrets', 'pub', 'sub/secrets', 'sub/pub', join(ws.root, 'sub', 'secrets')]) {
      const out = await call(branch, 'subagent', { instruction: 'look', cwd });
      expect(out, cwd).toMatchObject({ success: false });
      expect(['denied', 'symlink_rejected'], cwd).toContain(out.error_code);
    }
    expect(model.requests).toHaveLength(0);
    expect(readdirSync(join(ws.root, 'sub', 'secrets')).sort()).toEqual(['key.txt', 's.py']);
  });
});
