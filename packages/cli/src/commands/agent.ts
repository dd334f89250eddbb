import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { runAgent } from '@bough/coding';
import { type Branch, TURN_CALLS_KEY } from '@bough/core';
import { terminalApprover } from '../agent/approval.js';
import { agentCheckpoints } from '../agent/checkpoints.js';
import { renderConfig, resolveAgentConfig } from '../agent/config.js';
import { AgentOutput } from '../agent/events.js';
import { buildModel } from '../agent/model.js';
import { type AgentTools, agentBranch, agentTools } from '../agent/profile.js';
import {
  agentProtectedNames,
  checkEvidence,
  latestSession,
  loadSession,
  newSessionPath,
  SESSION_DIR,
  sessionSaver,
} from '../agent/session.js';
import { flag, has, type ParsedArgs, sandboxFlags, UsageError } from '../args.js';
import { jobWatchdog, watchBackgroundJobs } from '../internal/job-watchdog.js';
import { sandboxNotice } from '../internal/sandbox-notice.js';
import type { CliIO } from '../output.js';
import { cliToolNames, workspaceRoot } from '../toolset.js';

const SYSTEM = (root: string) =>
  `You are a careful coding agent working in ${root}. Use the tools to inspect before you change anything; read a file before editing it. When you call tools, say briefly what you are doing.`;

/** Which session file this run continues or starts. */
function sessionPath(args: ParsedArgs, io: CliIO, root: string): { path: string; resume: boolean } {
  const named = flag(args, 'session');
  if (named !== undefined && has(args, 'resume')) throw new UsageError('Pass --session FILE or --resume, not both.');
  if (named !== undefined) {
    const path = resolve(io.cwd, named);
    return { path, resume: existsFile(path) };
  }
  if (has(args, 'resume')) {
    const latest = latestSession(root);
    if (!latest) throw new UsageError(`--resume found no session in ${resolve(root, SESSION_DIR)}.`);
    return { path: latest, resume: true };
  }
  return { path: newSessionPath(root), resume: false };
}

function existsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Renews the read-before-edit evidence that is still true after a resume, and tells the model what changed. */
async function recheckFiles(branch: Branch, root: string, signal: AbortSignal): Promise<void> {
  const { unchanged, changed } = checkEvidence(branch, root);
  if (unchanged.length === 0 && changed.length === 0) return;
  const lines = ['[bough] This conversation was resumed from its session file; the files it had seen were checked.'];
  if (unchanged.length > 0) lines.push(`Unchanged since you saw them (checked again below): ${unchanged.join(', ')}.`);
  if (changed.length > 0)
    lines.push(`Changed or removed since you saw them: ${changed.join(', ')}. Read them again before editing.`);
  branch.addMessage({ role: 'user', content: lines.join('\n') });
  if (unchanged.length === 0) return;
  const calls = unchanged.map((path) => ({
    name: 'reader',
    arguments: { action: 'read', path, limit: 1 },
    id: randomUUID(),
  }));
  branch.addMessage({
    role: 'assistant',
    content: '',
    metadata: { [TURN_CALLS_KEY]: calls, resumed: true },
  });
  await branch.act(calls, { strategy: 'sequential', signal });
}

/**
 * `bough agent "<instruction>"`: the coding toolkit driven by a model behind an OpenAI-compatible endpoint.
 * Exit 0 when the model answered, 1 when it stopped otherwise (model error, turn limit), 130 when interrupted.
 */
export async function agentCommand(args: ParsedArgs, io: CliIO, signal: AbortSignal): Promise<number> {
  const root = workspaceRoot(flag(args, 'workspace'), io.cwd);
  const config = resolveAgentConfig(args, io.env, root);
  if (config.ignored.length > 0) {
    io.stderr(
      `bough agent: ignored in ${config.files.workspace} (a workspace file may only narrow your own settings): ${config.ignored.join('; ')}.\n`,
    );
  }
  if (has(args, 'print-config')) {
    io.stdout(renderConfig(config));
    return 0;
  }
  const session = sessionPath(args, io, root);
  const instruction = args.positionals.join(' ').trim() || (session.resume ? 'Continue where you stopped.' : '');
  if (!instruction)
    throw new UsageError('agent needs an instruction: bough agent "fix the failing test" --base-url URL --model NAME');
  const json = has(args, 'json');
  const output = new AgentOutput(io, json);
  const model = buildModel(config, io.env, {
    onText: (delta) => output.text(delta),
    onRetry: (notice) => output.retry(notice, config.retries.value),
  });
  const protectedNames = agentProtectedNames(root, session.path);
  const ask = terminalApprover(io, { root, signal, yes: has(args, 'yes'), protectedNames });
  // The live line makes way for a question to the person.
  const onAsk: typeof ask = (...question) => {
    output.pause();
    return Promise.resolve(ask(...question)).finally(() => output.resume());
  };
  const sandbox = sandboxFlags(args);
  const notice = sandboxNotice('agent', sandbox.commandSandbox, cliToolNames(undefined));
  if (notice) io.stderr(notice);
  const checkpoints = agentCheckpoints(has(args, 'no-checkpoints'), root, io.env);
  if (checkpoints.notice) io.stderr(checkpoints.notice);
  const toolkit = {
    model,
    permissions: config.permissions.value,
    onAsk,
    protectedNames,
    ...sandbox,
    ...(checkpoints.setting ? { checkpoints: checkpoints.setting } : {}),
  };
  // The model is offered the tools of the family it was trained on (--profile, else read from its name).
  const tools = agentTools(config.profile.value, root, toolkit);
  // Whatever way the run ends (an answer, Ctrl-C or SIGTERM, a thrown error), the language servers and background
  // jobs the toolkit started end with it, and this returns once their processes are gone.
  try {
    return await runWithTools(io, signal, { root, instruction, session, json, output, model, config, tools });
  } finally {
    await tools.dispose();
  }
}

/** The run itself, once the tools exist: the branch (new or resumed), the session file, the model's turns. */
async function runWithTools(
  io: CliIO,
  signal: AbortSignal,
  run: {
    root: string;
    instruction: string;
    session: { path: string; resume: boolean };
    json: boolean;
    output: AgentOutput;
    model: ReturnType<typeof buildModel>;
    config: ReturnType<typeof resolveAgentConfig>;
    tools: AgentTools;
  },
): Promise<number> {
  const { root, instruction, session, json, output, model, config, tools } = run;
  let branch: Branch;
  if (session.resume) {
    branch = loadSession(session.path, root, { model, workspaceRoot: root, tools: tools.tools });
  } else {
    branch = agentBranch(root, model, tools);
    branch.setSystem(SYSTEM(root));
  }
  // Every background job bash starts is handed to the watchdog, which ends the ones left if this process is killed.
  watchBackgroundJobs(tools.toolkit(branch), jobWatchdog());
  // Nothing is written before the model answered once: a run that never reached it leaves no session behind.
  let reached = session.resume;
  const saver = sessionSaver(session.path, root);
  const save = () => {
    if (reached) saver(branch);
  };
  const stopSaving = branch.subscribe((event) => {
    if (event.type !== 'message') return;
    if (event.message.role === 'assistant') reached = true;
    if (event.message.role !== 'action_request') save();
  });
  const stop = output.follow(branch);
  if (session.resume) await recheckFiles(branch, root, signal);
  output.thinking();
  const result = await runAgent(branch, instruction, {
    signal,
    progress: (update) => output.progress(update),
    ...(config.maxTurns.value ? { maxTurns: config.maxTurns.value } : {}),
  }).finally(() => {
    stop();
    stopSaving();
    save();
  });
  output.final(result, { session: session.path });
  if (!json) io.stderr(`session: ${session.path} (continue with --resume or --session)\n`);
  return result.stopped === 'answer' ? 0 : 1;
}
