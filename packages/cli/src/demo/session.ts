import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { codingToolkit, runAgent } from '@branchkit/coding';
import { Branch, ScriptedChatModel, type ScriptStep, textReply, toolCallReply } from '@branchkit/core';
import { Exchange, messengerProvider } from '@branchkit/messenger';
import { printCalls, summarize } from '../commands/print-calls.js';
import type { CliIO } from '../output.js';
import { DEMO_PROJECT } from './project.js';

/** One expectation the demo checks about its own run, so a broken toolkit makes the demo fail loudly. */
interface Check {
  readonly label: string;
  readonly ok: boolean;
}

const call = (name: string, args: unknown) => toolCallReply([{ name, arguments: args }]);

/** The scripted model turns: each step is one tool call, in the order a careful agent would make them. */
function script(): ScriptStep[] {
  return [
    call('editor', {
      action: 'edit',
      file_path: 'stats/calc.py',
      old_string: 'return a - b  # BUG: should add',
      new_string: 'return a + b',
    }),
    call('reader', { action: 'read', path: 'stats/calc.py' }),
    call('editor', {
      action: 'edit',
      file_path: 'stats/calc.py',
      old_string: 'return a - b  # BUG: should add',
      new_string: 'return a + b',
    }),
    call('code_check', { paths: ['stats'] }),
    call('code_nav', { action: 'find_references', path: 'web', symbol: 'greet' }),
    call('ast_search', { pattern: 'def $NAME($$$ARGS): $$$BODY', path: 'stats', lang: 'python' }),
    call('search', { action: 'grep', pattern: 'mean|TOKEN', path: '.' }),
    call('bash', { command: 'grep -c "def " stats/calc.py' }),
    call('context', { action: 'status' }),
    call('context', { action: 'evict', start: 1, end: 5 }),
    call('context', { action: 'restore', start: 1, end: 5 }),
    textReply('Fixed add() in stats/calc.py; ruff still flags two unused imports there, which I left for review.'),
  ];
}

/**
 * `branchkit demo`: copies a small project to a temp workspace and runs a scripted agent session through the real
 * coding toolkit, then shows a clone rebinding its tools and two branches exchanging a message.
 */
export async function runDemo(io: CliIO, options: { keep?: boolean } = {}): Promise<number> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'branchkit-demo-')));
  for (const [path, text] of Object.entries(DEMO_PROJECT)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const checks: Check[] = [];
  try {
    io.stdout(`branchkit demo — workspace ${root}\n\n1. A scripted agent works through the coding toolkit\n`);
    const model = new ScriptedChatModel(script(), 'demo-script');
    const branch = new Branch({ name: 'agent', workspaceRoot: root, model, system: 'You fix bugs carefully.' });
    branch.registerTools(codingToolkit({ workspaceRoot: root }));
    const stop = printCalls(branch, io, { prefix: '   ' });
    const result = await runAgent(branch, 'add() in stats/calc.py subtracts; fix it and check the project.', {
      maxTurns: 20,
    }).finally(stop);
    io.stdout(`   answer: ${result.text}\n   (${result.turns} turns, ${result.toolCalls} tool calls)\n`);
    const outputs = branch.messages
      .filter((m) => m.role === 'action_response')
      .map((m) => (m.content as { function: string; output: Record<string, unknown> }).output);
    checks.push(
      { label: 'the edit before any read was refused', ok: outputs[0]?.success === false },
      { label: 'the edit after the read succeeded', ok: outputs[2]?.success === true },
      { label: 'ruff reported real diagnostics', ok: outputs[3]?.status === 'diagnostics' },
      { label: 'grep never showed the .env secret', ok: !JSON.stringify(outputs[6]).includes('demo-secret') },
      { label: 'the agent finished with an answer', ok: result.stopped === 'answer' },
    );

    io.stdout('\n2. Clone the branch: stateless tools are shared, bound tools are rebuilt for the clone\n');
    const clone = branch.clone({ name: 'agent-clone' });
    const sameReader = clone.registry.get('reader') === branch.registry.get('reader');
    io.stdout(
      `   clone has ${clone.messages.length} messages; its tools are ${sameReader ? 'the same objects (wrong!)' : 'new bindings'}\n`,
    );
    const before = branch.activeIds().length;
    const evicted = await clone.act({ name: 'context', arguments: { action: 'evict', start: 1, end: 3 } });
    io.stdout(`   → context evict on the clone: ${summarize(evicted.output)}\n`);
    io.stdout(
      `   source still has ${branch.activeIds().length} active messages (was ${before}); clone has ${clone.activeIds().length}\n`,
    );
    checks.push(
      { label: 'clone rebinds branch-scoped tools', ok: !sameReader },
      { label: "the clone's context tool left the source alone", ok: branch.activeIds().length === before },
    );

    io.stdout('\n3. Two branches talk over an Exchange\n');
    const exchange = new Exchange();
    const alice = new Branch({ name: 'alice' });
    const bob = new Branch({ name: 'bob' });
    const roster = { alice: alice.id, bob: bob.id };
    for (const b of [alice, bob]) b.registerTools(messengerProvider({ exchange, roster }));
    const sent = await alice.act({
      name: 'messenger',
      arguments: { action: 'send', to: 'bob', content: 'calc.py is fixed — please review' },
    });
    io.stdout(`   alice → messenger send: ${summarize(sent.output)}\n`);
    const got = await bob.act({ name: 'messenger', arguments: { action: 'receive' } });
    io.stdout(`   bob → messenger receive: ${summarize(got.output)}\n`);
    checks.push({ label: 'bob received the message', ok: JSON.stringify(got.output).includes('please review') });
  } finally {
    if (!options.keep) rmSync(root, { recursive: true, force: true });
  }
  io.stdout('\nChecks\n');
  for (const check of checks) io.stdout(`   ${check.ok ? '✓' : '✗'} ${check.label}\n`);
  const failed = checks.filter((check) => !check.ok).length;
  io.stdout(failed ? `\n${failed} check(s) failed.\n` : '\ndemo OK\n');
  return failed ? 1 : 0;
}
