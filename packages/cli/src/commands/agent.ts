import { runAgent } from '@bough/coding';
import { terminalApprover } from '../agent/approval.js';
import { renderConfig, resolveAgentConfig } from '../agent/config.js';
import { AgentOutput } from '../agent/events.js';
import { buildModel } from '../agent/model.js';
import { flag, has, type ParsedArgs, UsageError } from '../args.js';
import type { CliIO } from '../output.js';
import { toolkitBranch, workspaceRoot } from '../toolset.js';

const SYSTEM = (root: string) =>
  `You are a careful coding agent working in ${root}. Use the tools to inspect before you change anything; read a file before editing it. When you call tools, say briefly what you are doing.`;

/**
 * `bough agent "<instruction>"`: the coding toolkit driven by a model behind an OpenAI-compatible endpoint.
 * Exit 0 when the model answered, 1 when it stopped otherwise (model error, turn limit), 130 when interrupted.
 */
export async function agentCommand(args: ParsedArgs, io: CliIO, signal: AbortSignal): Promise<number> {
  const root = workspaceRoot(flag(args, 'workspace'), io.cwd);
  const config = resolveAgentConfig(args, io.env, root);
  if (has(args, 'print-config')) {
    io.stdout(renderConfig(config));
    return 0;
  }
  const instruction = args.positionals.join(' ').trim();
  if (!instruction)
    throw new UsageError('agent needs an instruction: bough agent "fix the failing test" --base-url URL --model NAME');
  const json = has(args, 'json');
  const output = new AgentOutput(io, json);
  const model = buildModel(config, io.env, {
    onText: (delta) => output.text(delta),
    onRetry: (notice) => output.retry(notice, config.retries.value),
  });
  const onAsk = terminalApprover(io, { root, signal, yes: has(args, 'yes') });
  const branch = toolkitBranch(root, { model, permissions: config.permissions.value, onAsk });
  branch.setSystem(SYSTEM(root));
  const stop = output.follow(branch);
  const result = await runAgent(branch, instruction, {
    signal,
    ...(config.maxTurns.value ? { maxTurns: config.maxTurns.value } : {}),
  }).finally(stop);
  output.final(result);
  return result.stopped === 'answer' ? 0 : 1;
}
