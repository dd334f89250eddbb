import { isPresetName, PERMISSION_PRESETS, runAgent } from '@bough/coding';
import { OpenAIChatModel } from '@bough/core';
import { flag, intFlag, type ParsedArgs, UsageError } from '../args.js';
import type { CliIO } from '../output.js';
import { toolkitBranch, workspaceRoot } from '../toolset.js';
import { printCalls } from './print-calls.js';

function permissionsFlag(args: ParsedArgs) {
  const value = flag(args, 'permissions');
  if (value === undefined) return undefined;
  if (!isPresetName(value)) {
    throw new UsageError(`--permissions must be one of ${Object.keys(PERMISSION_PRESETS).join(', ')}.`);
  }
  return value;
}

function modelUrl(value: string | undefined): string {
  if (!value) throw new UsageError('agent needs --base-url (an OpenAI-compatible endpoint) and --model.');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url ${JSON.stringify(value)} is not a URL (try http://localhost:11434/v1).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--base-url must be http or https.');
  return value;
}

/**
 * `bough agent "<instruction>" --base-url URL --model NAME`: the coding toolkit driven by a real model.
 * Exit 0 when the model answered, 1 when it stopped otherwise (model error, turn limit), 130 when interrupted.
 */
export async function agentCommand(args: ParsedArgs, io: CliIO, signal: AbortSignal): Promise<number> {
  const instruction = args.positionals.join(' ').trim();
  if (!instruction)
    throw new UsageError('agent needs an instruction: bough agent "fix the failing test" --base-url URL --model NAME');
  const baseUrl = modelUrl(flag(args, 'base-url'));
  const modelName = flag(args, 'model');
  if (!modelName) throw new UsageError('agent needs --base-url (an OpenAI-compatible endpoint) and --model.');
  const keyVar = flag(args, 'api-key-env') ?? 'OPENAI_API_KEY';
  const apiKey = io.env[keyVar];
  const timeoutMs = intFlag(args, 'timeout');
  const maxTurns = intFlag(args, 'max-turns');
  const permissions = permissionsFlag(args);
  const root = workspaceRoot(flag(args, 'workspace'), io.cwd);
  const model = new OpenAIChatModel({
    baseUrl,
    model: modelName,
    ...(apiKey ? { apiKey } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  const branch = toolkitBranch(root, { model, ...(permissions ? { permissions } : {}) });
  branch.setSystem(
    `You are a careful coding agent working in ${root}. Use the tools to inspect before you change anything; read a file before editing it.`,
  );
  const json = args.flags.has('json');
  const stop = printCalls(branch, io, { json });
  const result = await runAgent(branch, instruction, { signal, ...(maxTurns ? { maxTurns } : {}) }).finally(stop);
  if (json) io.stdout(`${JSON.stringify({ event: 'result', ...result })}\n`);
  else
    io.stdout(
      `\n${result.text}\n\n(${result.turns} model turns, ${result.toolCalls} tool calls, stopped: ${result.stopped}${result.error ? ` — ${result.error}` : ''})\n`,
    );
  return result.stopped === 'answer' ? 0 : 1;
}
