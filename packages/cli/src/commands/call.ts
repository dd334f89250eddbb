import { flag, has, intFlag, type ParsedArgs, UsageError } from '../args.js';
import { type CliIO, isFailureOutput, progressReporter } from '../output.js';
import { standaloneRegistry, toolkitBranch, workspaceRoot } from '../toolset.js';

/**
 * `branchkit call <tool> '<json>'`: runs one tool and prints its JSON response.
 * Exit 0 on success, 1 when the tool reported a typed failure, 2 on a usage error.
 */
export async function callCommand(args: ParsedArgs, io: CliIO, signal: AbortSignal): Promise<number> {
  const [name, json = '{}', ...extra] = args.positionals;
  if (!name) throw new UsageError("call needs a tool name: branchkit call <tool> '<json arguments>'");
  if (extra.length > 0) throw new UsageError('call takes one JSON argument; quote it as a single word.');
  let request: unknown;
  try {
    request = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`The arguments are not valid JSON (${(error as Error).message}).`);
  }
  const root = workspaceRoot(flag(args, 'workspace'), io.cwd);
  const registry = has(args, 'toolkit') ? toolkitBranch(root).registry : standaloneRegistry(root);
  if (!registry.has(name)) throw new UsageError(`No tool named ${name}. Available: ${registry.names().join(', ')}.`);
  const spinner = progressReporter(io, name);
  const timeoutMs = intFlag(args, 'timeout');
  const call = await registry
    .invoke(name, request, { signal, progress: spinner.update, ...(timeoutMs ? { timeoutMs } : {}) })
    .finally(spinner.stop);
  io.stdout(`${JSON.stringify(call.output, null, has(args, 'json') ? 0 : 2)}\n`);
  return call.status === 'completed' && !isFailureOutput(call.output) ? 0 : 1;
}
