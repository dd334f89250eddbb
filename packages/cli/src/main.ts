import { checkFlags, has, type ParsedArgs, parseArgs, UsageError } from './args.js';
import { agentCommand } from './commands/agent.js';
import { callCommand } from './commands/call.js';
import { mcpCommand } from './commands/mcp.js';
import { toolsCommand } from './commands/tools.js';
import { runDemo } from './demo/session.js';
import type { CliIO } from './output.js';
import { VERSION } from './version.js';

/** The usage text printed by `bough help` and on usage errors. */
export const USAGE = `bough ${VERSION} — tools for coding agents, usable from the command line

Usage:
  bough tools [--toolkit] [--tools a,b] [--json] [--workspace DIR]
      List the tools with their descriptions and JSON Schemas.
  bough call <tool> '<json>'|- [--workspace DIR] [--toolkit] [--timeout MS] [--json]
      Run one tool and print its JSON response ('-' reads the JSON object from stdin).
      Exit 0 on success, 1 on a typed failure, 2 on a usage error, 130 when interrupted.
  bough mcp [DIR…] [--tools a,b] [--standalone] [--http [HOST:]PORT]
      Serve the coding toolkit (or the chosen tools) for exactly these directories over MCP, on stdio or
      streamable HTTP (loopback, bearer token from BOUGH_MCP_TOKEN or printed once). Without DIR the
      client's MCP roots are served; the current directory never is.
  bough demo [--keep] [--json]
      Run a scripted agent session through the real toolkit on a built-in example (no network, no API key).
  bough agent "<instruction>" --base-url URL --model NAME [--api-key-env VAR] [--workspace DIR]
                  [--max-turns N] [--timeout MS] [--permissions PRESET] [--json]
      Drive the coding toolkit with a model behind an OpenAI-compatible chat-completions endpoint.

--workspace defaults to the current directory; every path a tool touches must stay inside it.
An unknown flag is a usage error (exit 2), so a typo never silently changes what runs.
`;

/** Runs the CLI; returns the process exit code (0 ok, 1 typed failure, 2 usage error). Never throws. */
export async function main(argv: readonly string[], io: CliIO, signal: AbortSignal): Promise<number> {
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
    if (args.command === undefined || args.command === 'help' || (has(args, 'help') && !args.command)) {
      io.stdout(USAGE);
      return args.command === undefined && !has(args, 'help') ? 2 : 0;
    }
    if (has(args, 'help')) {
      io.stdout(USAGE);
      return 0;
    }
    if (has(args, 'version')) {
      io.stdout(`${VERSION}\n`);
      return 0;
    }
    checkFlags(args);
    switch (args.command) {
      case 'tools':
        return await toolsCommand(args, io);
      case 'call':
        return await callCommand(args, io, signal);
      case 'mcp':
        return await mcpCommand(args, io, signal);
      case 'demo':
        return await runDemo(io, { keep: has(args, 'keep'), json: has(args, 'json') });
      case 'agent':
        return await agentCommand(args, io, signal);
      default:
        throw new UsageError(`Unknown command ${JSON.stringify(args.command)}.`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`bough: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr(`bough: ${(error as Error)?.message ?? String(error)}\n`);
    return 1;
  }
}
