import { checkFlags, has, type ParsedArgs, parseArgs, UsageError } from './args.js';
import type { CliIO } from './output.js';
import { VERSION } from './version.js';

// The commands are imported when one runs, never at start-up: they load every tool package (the TypeScript compiler,
// the grammars, the MCP SDK), which `bough --version` and `--help` must not wait for. Keep it so: this module and
// args.js import no tool package (main.test.ts checks the loaded modules).

/** The full usage text printed by `bough --help` and `bough help`; `bough <command> --help` prints its part. */
export const USAGE = `bough ${VERSION} — tools for coding agents, usable from the command line

Usage:
  bough tools [--toolkit] [--tools a,b] [--json] [--workspace DIR]
      List the tools with their descriptions and JSON Schemas.
  bough call <tool> '<json>'|- [--workspace DIR] [--toolkit] [--timeout MS] [--json]
      Run one tool and print its JSON response ('-' reads the JSON object from stdin).
      Exit 0 on success, 1 on a typed failure, 2 on a usage error, 130 when interrupted, 141 when stdout closed.
  bough mcp [DIR…] [--tools a,b] [--standalone] [--http [HOST:]PORT] [--sandbox MODE] [--network]
            [--profile full|minimal|anthropic|openai|gemini] [--output-schemas]
      Serve the coding toolkit (or the chosen tools) for exactly these directories over MCP, on stdio or
      streamable HTTP (loopback, bearer token from BOUGH_MCP_TOKEN or printed once). Without DIR the
      client's MCP roots are served; the current directory never is. Commands run under bubblewrap
      where it works (--sandbox auto, the default; off or required), with no network unless --network.
      --profile serves another harness's tool names over the same toolkit; --output-schemas advertises
      each tool's outputSchema (results carry structuredContent either way).
  bough demo [--keep] [--json]
      Run a scripted agent session through the real toolkit on a built-in example (no network, no API key).
  bough agent "<instruction>" [--base-url URL] [--model NAME] [--api-key-env VAR] [--workspace DIR]
                  [--permissions PRESET] [--yes] [--max-turns N] [--timeout MS] [--retries N] [--no-stream]
                  [--json] [--print-config] [--sandbox off|auto|required] [--network] [--no-checkpoints]
                  [--profile NAME]
      Drive the coding toolkit with a model behind an OpenAI-compatible endpoint (settings: flags, then
      $OPENAI_BASE_URL / $OPENAI_API_KEY / $BOUGH_MODEL, then ~/.config/bough/config.json, which a workspace
      bough.config.json may only narrow; --print-config shows them).
      The default policy 'safe' asks on the terminal before edits and commands. Every call that can change
      files is checkpointed (outside the workspace) so bough undo can take it back; --no-checkpoints turns it off.
      The model gets the tools it was trained on, picked from its name (claude: anthropic, gpt/o-series/codex:
      openai, gemini: gemini, others: full); --profile full|minimal|anthropic|openai|gemini overrides.
  bough checkpoints [diff ID [ID]] [--workspace DIR] [--json]
      List the workspace's newest checkpoints (call, tool, time, files), or show what one changed.
  bough undo [ID] [--workspace DIR] [--force] [--json]
      Restore the files to just before checkpoint ID (default: the newest call); run again to undo the undo.

--workspace defaults to the current directory; every path a tool touches must stay inside it.
An unknown flag is a usage error (exit 2), so a typo never silently changes what runs.
`;

/** Where to look for more after a usage error: the command's own help when the command is known. */
function helpHint(command: string | undefined): string {
  return command !== undefined && commandHelp(command) !== undefined ? `bough ${command} --help` : 'bough --help';
}

/**
 * The help of one command, cut from {@link USAGE} (its block of lines plus the closing notes), so the per-command help
 * can never disagree with the full one. Undefined for an unknown command.
 */
export function commandHelp(command: string): string | undefined {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  bough ${command} `) || line === `  bough ${command}`);
  if (start === -1) return undefined;
  let end = start + 1;
  while (end < lines.length && /^ {3,}\S/.test(lines[end] as string)) end++;
  const notes = lines.slice(lines.findIndex((line, at) => at > end && line.trim() === '') + 1).join('\n');
  return `Usage:\n${lines.slice(start, end).join('\n')}\n\n${notes}`;
}

/**
 * Runs the CLI; returns the process exit code (0 ok, 1 typed failure, 2 usage error). Never throws. A usage error is
 * one line on stderr saying what was wrong, then where the help is.
 */
export async function main(argv: readonly string[], io: CliIO, signal: AbortSignal): Promise<number> {
  let command: string | undefined;
  try {
    const args: ParsedArgs = parseArgs(argv);
    command = args.command;
    if (has(args, 'version') && (command === undefined || commandHelp(command) !== undefined)) {
      io.stdout(`${VERSION}\n`);
      return 0;
    }
    if (command === 'help') {
      const topic = args.positionals[0];
      const text = topic === undefined ? USAGE : commandHelp(topic);
      if (text === undefined) throw new UsageError(`No help for ${JSON.stringify(topic)}: it is not a command.`);
      io.stdout(text);
      return 0;
    }
    if (command === undefined) {
      if (has(args, 'help')) {
        io.stdout(USAGE);
        return 0;
      }
      throw new UsageError('No command given.');
    }
    const help = commandHelp(command);
    if (help === undefined) throw new UsageError(`Unknown command ${JSON.stringify(command)}.`);
    if (has(args, 'help')) {
      io.stdout(help);
      return 0;
    }
    checkFlags(args);
    switch (command) {
      case 'tools':
        return await (await import('./commands/tools.js')).toolsCommand(args, io);
      case 'call':
        return await (await import('./commands/call.js')).callCommand(args, io, signal);
      case 'mcp':
        return await (await import('./commands/mcp.js')).mcpCommand(args, io, signal);
      case 'demo':
        return await (await import('./demo/session.js')).runDemo(io, {
          keep: has(args, 'keep'),
          json: has(args, 'json'),
        });
      case 'agent':
        return await (await import('./commands/agent.js')).agentCommand(args, io, signal);
      case 'checkpoints':
        return await (await import('./commands/checkpoints.js')).checkpointsCommand(args, io);
      case 'undo':
        return await (await import('./commands/checkpoints.js')).undoCommand(args, io);
      default:
        throw new UsageError(`Unknown command ${JSON.stringify(command)}.`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      const line = error.message.replace(/\s*\n\s*/g, ' ');
      io.stderr(`bough: ${line}\nRun \`${helpHint(command)}\` for more.\n`);
      return 2;
    }
    io.stderr(`bough: ${(error as Error)?.message ?? String(error)}\n`);
    return 1;
  }
}
