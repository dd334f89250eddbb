import { runAgent } from '@branchkit/coding';
import { OpenAIChatModel } from '@branchkit/core';
import { flag, intFlag, type ParsedArgs, UsageError } from '../args.js';
import type { CliIO } from '../output.js';
import { toolkitBranch, workspaceRoot } from '../toolset.js';
import { printCalls } from './print-calls.js';

/** `branchkit agent "<instruction>" --base-url URL --model NAME`: the coding toolkit driven by a real model. */
export async function agentCommand(args: ParsedArgs, io: CliIO, signal: AbortSignal): Promise<number> {
  const instruction = args.positionals.join(' ').trim();
  if (!instruction)
    throw new UsageError(
      'agent needs an instruction: branchkit agent "fix the failing test" --base-url URL --model NAME',
    );
  const baseUrl = flag(args, 'base-url');
  const modelName = flag(args, 'model');
  if (!baseUrl || !modelName)
    throw new UsageError('agent needs --base-url (an OpenAI-compatible endpoint) and --model.');
  const keyVar = flag(args, 'api-key-env') ?? 'OPENAI_API_KEY';
  const apiKey = io.env[keyVar];
  const model = new OpenAIChatModel({ baseUrl, model: modelName, ...(apiKey ? { apiKey } : {}) });
  const root = workspaceRoot(flag(args, 'workspace'), io.cwd);
  const permissions = flag(args, 'permissions');
  const branch = toolkitBranch(root, { model, ...(permissions ? { permissions: permissions as never } : {}) });
  branch.setSystem(
    `You are a careful coding agent working in ${root}. Use the tools to inspect before you change anything; read a file before editing it.`,
  );
  const stop = printCalls(branch, io, { json: args.flags.has('json') });
  const maxTurns = intFlag(args, 'max-turns');
  const result = await runAgent(branch, instruction, { signal, ...(maxTurns ? { maxTurns } : {}) }).finally(stop);
  if (args.flags.has('json')) io.stdout(`${JSON.stringify(result)}\n`);
  else
    io.stdout(
      `\n${result.text}\n\n(${result.turns} model turns, ${result.toolCalls} tool calls, stopped: ${result.stopped}${result.error ? ` — ${result.error}` : ''})\n`,
    );
  return result.stopped === 'answer' ? 0 : 1;
}
