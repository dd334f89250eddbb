import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { codingToolkit, runAgent } from '@bough/coding';
import { Branch, ScriptedChatModel, type ScriptStep, textReply, toolCallReply } from '@bough/core';
import { Exchange, messengerProvider } from '@bough/messenger';
import { printCalls } from '../commands/print-calls.js';
import type { CliIO } from '../output.js';
import { DEMO_PROJECT } from './project.js';

/** One expectation the demo checks about its own run, so a broken toolkit makes the demo fail loudly. */
interface Check {
  readonly label: string;
  readonly ok: boolean;
}

/** One scripted model turn: why the agent makes the call, and the call itself. */
interface Step {
  readonly note: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

const EDIT = {
  action: 'edit',
  file_path: 'stats/calc.py',
  old_string: 'return a - b  # BUG: should add',
  new_string: 'return a + b',
};

/** The calls a careful agent would make, in order, each with the sentence the demo prints above it. */
const STEPS: readonly Step[] = [
  { note: 'Edit a file it has not read yet: the toolkit refuses.', name: 'editor', args: EDIT },
  { note: 'Read the file first (numbered lines).', name: 'reader', args: { action: 'read', path: 'stats/calc.py' } },
  { note: 'The same edit again: now it is allowed.', name: 'editor', args: EDIT },
  { note: 'Check the Python code with ruff (real diagnostics).', name: 'code_check', args: { paths: ['stats'] } },
  {
    note: 'Navigate TypeScript: where is greet() used?',
    name: 'code_nav',
    args: { action: 'find_references', path: 'web', symbol: 'greet' },
  },
  {
    note: 'Structural search: every Python function definition.',
    name: 'ast_search',
    args: { pattern: 'def $NAME($$$ARGS): $$$BODY', path: 'stats', lang: 'python' },
  },
  {
    note: 'Grep the project; the .env file holding a secret is never searched.',
    name: 'search',
    args: { action: 'grep', pattern: 'mean|TOKEN', path: '.' },
  },
  {
    note: 'Run one shell command (no shell operators; quoted text stays literal).',
    name: 'bash',
    args: { command: 'grep -c "def " stats/calc.py' },
  },
  { note: 'Look at the context window.', name: 'context', args: { action: 'status' } },
  {
    note: 'Evict messages 1–4 (the start of the session) to free room in the context…',
    name: 'context',
    args: { action: 'evict', start: 1, end: 5 },
  },
  {
    note: '…and restore them: eviction hides messages, it never deletes them.',
    name: 'context',
    args: { action: 'restore', start: 1, end: 5 },
  },
];

const ANSWER = 'Fixed add() in stats/calc.py; ruff still flags two unused imports there, which I left for review.';

function script(): ScriptStep[] {
  return [
    ...STEPS.map((step, index) => toolCallReply([{ id: `demo_${index + 1}`, name: step.name, arguments: step.args }])),
    textReply(ANSWER),
  ];
}

function copyProject(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'bough-demo-')));
  for (const [path, text] of Object.entries(DEMO_PROJECT)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function outputsOf(branch: Branch): Record<string, unknown>[] {
  return branch.messages
    .filter((m) => m.role === 'action_response')
    .map((m) => (m.content as { output: Record<string, unknown> }).output);
}

/**
 * `bough demo`: copies a small project to a temp workspace and runs a scripted agent session through the real
 * coding toolkit, then shows a clone rebinding its tools and two branches exchanging a message. With `json`, stdout
 * carries one JSON object per call and a final result object instead of the readable trace.
 */
export async function runDemo(io: CliIO, options: { keep?: boolean; json?: boolean } = {}): Promise<number> {
  const json = options.json === true;
  const say = (text: string) => {
    if (!json) io.stdout(text);
  };
  const root = copyProject();
  const checks: Check[] = [];
  try {
    say(`bough demo: a scripted agent fixes a bug in a small project, using the real tools.\n`);
    say(`Workspace (a temporary copy): ${root}\n\n== 1. An agent session on a Branch with the coding toolkit\n`);
    const model = new ScriptedChatModel(script(), 'demo-script');
    const branch = new Branch({ name: 'agent', workspaceRoot: root, model, system: 'You fix bugs carefully.' });
    branch.registerTools(codingToolkit({ workspaceRoot: root }));
    const notes = new Map(STEPS.map((step, index) => [`demo_${index + 1}`, step.note]));
    const stop = printCalls(branch, io, { json, prefix: '   ', notes });
    const result = await runAgent(branch, 'add() in stats/calc.py subtracts; fix it and check the project.', {
      maxTurns: 20,
    }).finally(stop);
    say(`\n   The agent's answer: ${result.text}\n   (${result.turns} model turns, ${result.toolCalls} tool calls)\n`);
    const outputs = outputsOf(branch);
    checks.push(
      { label: 'the edit before any read was refused', ok: outputs[0]?.error_code === 'not_read' },
      { label: 'the edit after the read succeeded', ok: outputs[2]?.success === true },
      { label: 'ruff reported real diagnostics', ok: outputs[3]?.status === 'diagnostics' },
      { label: 'grep never showed the .env secret', ok: !JSON.stringify(outputs[6]).includes('demo-secret') },
      { label: 'the agent finished with an answer', ok: result.stopped === 'answer' },
    );

    say('\n== 2. Clone the branch: stateless tools are shared, branch-bound tools are rebuilt for the clone\n');
    const clone = branch.clone({ name: 'agent-clone' });
    const rebound = clone.registry.get('context') !== branch.registry.get('context');
    say(
      `   The clone copied ${clone.messages.length} messages; its context tool is ${rebound ? 'a new binding' : 'shared (wrong!)'}.\n`,
    );
    const before = branch.activeIds().length;
    const stopClone = printCalls(clone, io, {
      json,
      prefix: '   ',
      notes: new Map([['clone_1', 'The clone evicts two messages from its own context:']]),
    });
    await clone
      .act({ id: 'clone_1', name: 'context', arguments: { action: 'evict', start: 1, end: 3 } })
      .finally(stopClone);
    const after = branch.activeIds().length;
    say(`   The source branch still has ${after} active messages (it had ${before}): the clone cannot touch it.\n`);
    checks.push(
      { label: 'clone rebinds branch-scoped tools', ok: rebound },
      { label: "the clone's context tool left the source alone", ok: after === before },
    );

    say('\n== 3. Two branches talk over an Exchange\n');
    const exchange = new Exchange();
    const alice = new Branch({ name: 'alice' });
    const bob = new Branch({ name: 'bob' });
    const roster = { alice: alice.id, bob: bob.id };
    for (const b of [alice, bob]) b.registerTools(messengerProvider({ exchange, roster }));
    const stopAlice = printCalls(alice, io, {
      json,
      prefix: '   ',
      notes: new Map([['alice_1', 'alice sends bob a note:']]),
    });
    const stopBob = printCalls(bob, io, { json, prefix: '   ', notes: new Map([['bob_1', 'bob reads his inbox:']]) });
    try {
      await alice.act({
        id: 'alice_1',
        name: 'messenger',
        arguments: { action: 'send', to: 'bob', content: 'calc.py is fixed, please review' },
      });
      const got = await bob.act({ id: 'bob_1', name: 'messenger', arguments: { action: 'receive' } });
      checks.push({ label: 'bob received the message', ok: JSON.stringify(got.output).includes('please review') });
    } finally {
      stopAlice();
      stopBob();
    }
  } finally {
    if (!options.keep) rmSync(root, { recursive: true, force: true });
  }
  const failed = checks.filter((check) => !check.ok).length;
  if (json) {
    io.stdout(
      `${JSON.stringify({ event: 'result', ok: failed === 0, checks, workspace: root, kept: options.keep === true })}\n`,
    );
  } else {
    say('\n== Self-checks\n');
    for (const check of checks) say(`   ${check.ok ? '✓' : '✗'} ${check.label}\n`);
    say(failed ? `\n${failed} check(s) failed.\n` : `\ndemo OK${options.keep ? ` (workspace kept at ${root})` : ''}\n`);
  }
  return failed ? 1 : 0;
}
