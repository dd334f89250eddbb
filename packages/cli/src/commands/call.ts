import { isToolFailure, type ToolRegistry } from '@bough/core';
import { flag, has, intFlag, type ParsedArgs, UsageError } from '../args.js';
import { disposeReported } from '../internal/dispose-reported.js';
import { CLI_LIMITS } from '../limits.js';
import { type CliIO, progressReporter } from '../output.js';
import { ownedToolkitBranch, standaloneTools, workspaceRoot } from '../toolset.js';

async function requestText(json: string, io: CliIO): Promise<string> {
  if (json !== '-') return json;
  if (!io.readStdin) throw new UsageError('There is no stdin to read the JSON arguments from.');
  // A bad override throws a ConfigurationError naming the key; main reports it and exits 1.
  return io.readStdin(CLI_LIMITS.resolve(io.limits).maxStdinBytes);
}

/** Parses the arguments of `call`; they must be one JSON object (the shape every tool request has). */
function parseRequest(text: string): Record<string, unknown> {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`The arguments are not valid JSON (${(error as Error).message}).`);
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    const kind = request === null ? 'null' : Array.isArray(request) ? 'an array' : `a ${typeof request}`;
    throw new UsageError(`The arguments must be a JSON object like '{"action":"read","path":"a.txt"}', not ${kind}.`);
  }
  return request as Record<string, unknown>;
}

/**
 * `bough call <tool> '<json>'` (or `-` to read the JSON from stdin): runs one tool and prints its JSON response.
 * Exit 0 on success, 1 when the tool reported a typed failure, 2 on a usage error.
 */
export async function callCommand(args: ParsedArgs, io: CliIO, signal: AbortSignal): Promise<number> {
  const [name, json = '{}', ...extra] = args.positionals;
  if (!name) throw new UsageError("call needs a tool name: bough call <tool> '<json arguments>'");
  if (extra.length > 0) throw new UsageError('call takes one JSON argument; quote it as a single word.');
  const root = workspaceRoot(flag(args, 'workspace'), io.cwd);
  const { registry, dispose } = toolsFor(args, root);
  // Whatever way the call ends (a result, a typed failure, Ctrl-C or SIGTERM aborting `signal`, a usage error), the
  // language servers and background jobs its tools started end with it before the command returns; a failure to end
  // them is reported on stderr and leaves the call's exit code (or usage error) as it was.
  try {
    if (!registry.has(name)) throw new UsageError(`No tool named ${name}. Available: ${registry.names().join(', ')}.`);
    const timeoutMs = intFlag(args, 'timeout');
    const request = parseRequest(await requestText(json, io));
    const spinner = progressReporter(io, name);
    const call = await registry
      .invoke(name, request, { signal, progress: spinner.update, ...(timeoutMs ? { timeoutMs } : {}) })
      .finally(spinner.stop);
    io.stdout(`${JSON.stringify(call.output, null, has(args, 'json') ? 0 : 2)}\n`);
    return call.status === 'completed' && !isToolFailure(call.output) ? 0 : 1;
  } finally {
    await disposeReported('call', dispose, io);
  }
}

/** The registry `call` runs a tool from (`--toolkit`'s, else the standalone tools), with what ends what it started. */
function toolsFor(args: ParsedArgs, root: string): { registry: ToolRegistry; dispose: () => Promise<void> } {
  if (has(args, 'toolkit')) {
    const { branch, dispose } = ownedToolkitBranch(root);
    return { registry: branch.registry, dispose };
  }
  const { registry, bash } = standaloneTools(root, undefined);
  return { registry, dispose: () => bash.dispose() };
}
