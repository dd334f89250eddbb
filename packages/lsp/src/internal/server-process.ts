import { PassThrough } from 'node:stream';
import { DEFAULT_ENV_ALLOWLIST, type StartedProcess, startProcess } from '@bough/process';
import {
  createProtocolConnection,
  type ProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { type LspFailure, lspFailure } from '../errors.js';
import type { LanguageServerConfig } from '../servers.js';

/** How a server process is started: the root it runs in and the environment rules of `@bough/process`. */
export interface SpawnSettings {
  readonly root: string;
  /** Where inherited variables come from (default `process.env`, read only by `@bough/process`). */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Extra variables set as given. */
  readonly env?: Readonly<Record<string, string>>;
}

/** A running server: its process (own group) and the JSON-RPC connection over its stdio. */
export interface ServerProcess {
  readonly process: StartedProcess;
  readonly connection: ProtocolConnection;
  /** The last lines the server wrote to stderr, for failure messages. */
  stderrTail(): string;
}

const STDERR_KEEP = 4_000;

/**
 * Starts a language server through `@bough/process` (argv only, no shell, its own process group, the allow-listed
 * environment plus the server's own names) and wraps its stdio in the protocol library's connection. The framing and
 * message dispatch are the library's; nothing here parses the wire format.
 */
export async function spawnServer(
  server: LanguageServerConfig,
  settings: SpawnSettings,
): Promise<ServerProcess | LspFailure> {
  const stdout = new PassThrough();
  let stderr = '';
  const started = await startProcess(server.command, {
    cwd: settings.root,
    workspaceRoot: settings.root,
    inheritEnv: [...DEFAULT_ENV_ALLOWLIST, ...(server.inheritEnv ?? [])],
    ...(settings.baseEnv ? { baseEnv: settings.baseEnv } : {}),
    ...(settings.env ? { env: { ...settings.env } } : {}),
    stdinPipe: true,
    onStdout: (chunk) => stdout.write(chunk),
    onStderr: (chunk) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
    },
  });
  if (!started.success) {
    if (started.error_code === 'command_not_found') {
      return lspFailure(
        'unavailable',
        `The ${server.id} language server (${server.command[0]}) is not installed or not on PATH. Install it with: ${server.install}`,
      );
    }
    return lspFailure('unavailable', `The ${server.id} language server could not be started: ${started.error}`);
  }
  const stdin = started.stdin;
  if (!stdin) throw new Error('startProcess returned no stdin pipe'); // a bug in the call above, not a user problem
  void started.done.then(() => stdout.end());
  const connection = createProtocolConnection(new StreamMessageReader(stdout), new StreamMessageWriter(stdin));
  return { process: started, connection, stderrTail: () => stderr.trim().split('\n').slice(-5).join('\n') };
}
