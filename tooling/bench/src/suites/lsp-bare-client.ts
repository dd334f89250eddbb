import { type ChildProcess, spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';

/**
 * The peer of the lsp rows: a bare client on the same protocol library with nothing of ours in between (no workspace
 * gate, no disk read, no version bookkeeping), so its times are the server's own answer times plus the wire.
 */
export class BareClient {
  readonly connection: MessageConnection;
  readonly #child: ChildProcess;
  readonly #published = new Map<string, Array<(version: number | undefined) => void>>();

  constructor(argv: readonly string[], root: string, env: NodeJS.ProcessEnv) {
    // In its own session and process group, as @bough/lsp runs servers (it must, to end everything they start): on a
    // loaded Linux machine a new session is its own scheduler autogroup, and a server there answers measurably slower
    // than one in the caller's session (about 1.1-1.7x in interleaved runs of two bare clients, load 20-40). Placing
    // both alike leaves only the clients' own costs in the comparison.
    this.#child = spawn(argv[0] as string, argv.slice(1), {
      cwd: root,
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
      detached: true,
    });
    this.connection = createMessageConnection(
      new StreamMessageReader(this.#child.stdout as NodeJS.ReadableStream),
      new StreamMessageWriter(this.#child.stdin as NodeJS.WritableStream),
    );
    this.connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => null));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number }) => {
      for (const listener of this.#published.get(p.uri) ?? []) listener(p.version);
    });
    this.connection.listen();
  }

  async initialize(root: string): Promise<void> {
    const rootUri = pathToFileURL(root).href;
    await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'bench' }],
      capabilities: {
        textDocument: { publishDiagnostics: { versionSupport: true } },
        workspace: { configuration: true },
      },
    });
    await this.connection.sendNotification('initialized', {});
  }

  /** Resolves when diagnostics for `version` of `uri` are published. */
  published(uri: string, version: number): Promise<void> {
    return new Promise((resolve) => {
      const list = this.#published.get(uri) ?? [];
      const listener = (got: number | undefined) => {
        if (got !== undefined && got < version) return;
        this.#published.set(
          uri,
          (this.#published.get(uri) ?? []).filter((l) => l !== listener),
        );
        resolve();
      };
      list.push(listener);
      this.#published.set(uri, list);
    });
  }

  async close(): Promise<void> {
    await Promise.race([
      this.connection.sendRequest('shutdown').catch(() => {}),
      new Promise((r) => setTimeout(r, 1_000)),
    ]);
    try {
      if (this.#child.pid !== undefined) process.kill(-this.#child.pid, 'SIGKILL');
    } catch {
      this.#child.kill('SIGKILL'); // the group is already gone
    }
    this.connection.dispose();
  }
}
