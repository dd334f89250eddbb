import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  ConfigurationRequest,
  type Diagnostic,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  type FileEvent,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
} from 'vscode-languageserver-protocol/node';
import { type LspFailure, lspFailure } from '../errors.js';
import type { LspLimits } from '../limits.js';
import type { LanguageServerConfig } from '../servers.js';
import { bounded } from './bounded.js';
import { CLIENT_CAPABILITIES } from './capabilities.js';
import { DiagnosticStore, type PublishedDiagnostics } from './diagnostic-store.js';
import { type ServerProcess, type SpawnSettings, spawnServer } from './server-process.js';

interface OpenDocument {
  readonly languageId: string;
  version: number;
  text: string;
}

/**
 * One running language server for one workspace root: the initialize handshake, the documents it has open with
 * their version counters, the diagnostics it published, and requests bounded by a timeout. Created by the client's
 * pool; a session whose process ended is never reused.
 */
export class LanguageSession {
  readonly #proc: ServerProcess;
  readonly #limits: LspLimits;
  readonly #documents = new Map<string, OpenDocument>();
  readonly #diagnostics: DiagnosticStore;
  #closing = false;
  #exited = false;
  lastUsed = Date.now();

  private constructor(
    readonly server: LanguageServerConfig,
    proc: ServerProcess,
    limits: LspLimits,
  ) {
    this.#proc = proc;
    this.#limits = limits;
    this.#diagnostics = new DiagnosticStore(limits.unversionedSettleMs);
    void proc.process.done.then(() => {
      this.#exited = true;
      this.#diagnostics.endAll();
    });
  }

  /** Starts the server and completes `initialize`/`initialized` within `startTimeoutMs`. */
  static async start(
    server: LanguageServerConfig,
    settings: SpawnSettings,
    limits: LspLimits,
  ): Promise<LanguageSession | LspFailure> {
    const proc = await spawnServer(server, settings);
    if ('success' in proc) return proc;
    const session = new LanguageSession(server, proc, limits);
    const { connection } = proc;
    connection.onRequest(ConfigurationRequest.type, (params) => params.items.map(() => null));
    connection.onRequest(RegistrationRequest.type, () => undefined);
    connection.onRequest(UnregistrationRequest.type, () => undefined);
    connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    const rootUri = pathToFileURL(settings.root).href;
    connection.onRequest(WorkspaceFoldersRequest.type, () => [{ uri: rootUri, name: basename(settings.root) }]);
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => session.#published(params));
    connection.listen();
    const answer = await session.#bounded(
      connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        clientInfo: { name: 'bough' },
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: basename(settings.root) }],
        capabilities: CLIENT_CAPABILITIES,
        initializationOptions: server.initializationOptions ?? null,
      }),
      limits.startTimeoutMs,
      'initialize',
    );
    if (answer.failure) {
      await session.shutdown();
      const tail = proc.stderrTail();
      return lspFailure(
        answer.failure.error_code === 'timeout' ? 'timeout' : 'unavailable',
        `The ${server.id} language server did not start: ${answer.failure.error}${tail ? ` Its last output: ${tail}` : ''}`,
      );
    }
    await connection.sendNotification(InitializedNotification.type, {});
    return session;
  }

  /** Pid of the server (also its process group). */
  get pid(): number {
    return this.#proc.process.pid;
  }

  /** False once the process ended or shutdown began. */
  get alive(): boolean {
    return !this.#exited && !this.#closing;
  }

  /** True when the process ended without being asked to (a crash). */
  get crashed(): boolean {
    return this.#exited && !this.#closing;
  }

  /**
   * Makes the server's copy of a document equal `text`: opens it (version 1) or sends the full new text with the next
   * version. Unchanged text sends nothing. Returns the version the server now holds and whether this call sent it.
   */
  async sync(uri: string, languageId: string, text: string): Promise<{ version: number; sent: boolean }> {
    this.lastUsed = Date.now();
    const open = this.#documents.get(uri);
    if (open && open.text === text) {
      this.#documents.delete(uri); // re-insert: the map order is the least-recently-used order
      this.#documents.set(uri, open);
      return { version: open.version, sent: false };
    }
    if (open) {
      open.version++;
      open.text = text;
      this.#documents.delete(uri);
      this.#documents.set(uri, open);
      this.#diagnostics.expect(uri, open.version);
      this.#diagnostics.bump();
      await this.#proc.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: open.version },
        contentChanges: [{ text }],
      });
      return { version: open.version, sent: true };
    }
    await this.#evictPast(this.#limits.maxOpenDocuments - 1);
    this.#documents.set(uri, { languageId, version: 1, text });
    this.#diagnostics.expect(uri, 1);
    await this.#proc.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text },
    });
    return { version: 1, sent: true };
  }

  /** Marks a document as just used (the least-recently-used order) without sending anything. */
  touch(uri: string): void {
    this.lastUsed = Date.now();
    const open = this.#documents.get(uri);
    if (!open) return;
    this.#documents.delete(uri);
    this.#documents.set(uri, open);
  }

  /** How many documents the server has open. */
  get openDocuments(): number {
    return this.#documents.size;
  }

  /** Whether the document is open, and at which version. */
  versionOf(uri: string): number | undefined {
    return this.#documents.get(uri)?.version;
  }

  /** Closes a document (its diagnostics are forgotten). */
  async close(uri: string): Promise<void> {
    if (!this.#documents.delete(uri)) return;
    this.#diagnostics.forget(uri);
    if (this.alive)
      await this.#proc.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  async #evictPast(keep: number): Promise<void> {
    while (this.#documents.size > keep) {
      const oldest = this.#documents.keys().next().value as string;
      await this.close(oldest);
    }
  }

  /** Tells the server files changed on disk (a command or formatter wrote them). */
  async filesChanged(changes: FileEvent[]): Promise<void> {
    if (!this.alive || changes.length === 0) return;
    this.lastUsed = Date.now();
    this.#diagnostics.bump();
    await this.#proc.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes });
  }

  /**
   * Diagnostics the server published for exactly `version` of the document (or newer), received after change
   * `epoch`, waiting at most `waitMs`.
   */
  diagnosticsFor(uri: string, version: number, waitMs: number, epoch = 0): Promise<PublishedDiagnostics | undefined> {
    this.lastUsed = Date.now();
    return this.#diagnostics.waitFor(uri, version, waitMs, epoch);
  }

  /** How many changes the server has been told of (see {@link DiagnosticStore.epoch}). */
  get changeEpoch(): number {
    return this.#diagnostics.epoch;
  }

  /** The latest diagnostics published for a document, of whatever version. */
  latestDiagnostics(uri: string): PublishedDiagnostics | undefined {
    return this.#diagnostics.latest(uri);
  }

  /** Waits until the server has published nothing for `quietMs` (true), or `maxMs` passed (false). */
  quiet(quietMs: number, maxMs: number): Promise<boolean> {
    this.lastUsed = Date.now();
    return this.#diagnostics.quiet(quietMs, maxMs);
  }

  /** Every document with published diagnostics (other files an edit broke show up here). */
  allDiagnostics(): ReadonlyMap<string, PublishedDiagnostics> {
    return this.#diagnostics.all();
  }

  #published(params: { uri: string; version?: number | null; diagnostics: Diagnostic[] }): void {
    const open = this.#documents.get(params.uri);
    this.#diagnostics.publish(params.uri, params.version ?? undefined, open?.version, params.diagnostics);
  }

  /** Sends a request bounded by `requestTimeoutMs` (cancelled when exceeded) and the caller's signal. */
  async request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R | LspFailure> {
    if (!this.alive) return lspFailure('server_crashed', `The ${this.server.id} language server is not running.`);
    this.lastUsed = Date.now();
    const source = new CancellationTokenSource();
    // Cancelling sends $/cancelRequest; over a closed connection there is nobody left to tell.
    const cancel = () => {
      if (this.alive) source.cancel();
    };
    const onAbort = cancel;
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await this.#bounded(
        this.#proc.connection.sendRequest<R>(method, params, source.token),
        this.#limits.requestTimeoutMs,
        method,
        signal,
      );
      if (answer.failure) cancel();
      return answer.failure ?? (answer.value as R);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }

  #bounded<T>(pending: Promise<T>, ms: number, what: string, signal?: AbortSignal) {
    return bounded(pending, {
      ms,
      timeoutMessage: `The ${this.server.id} language server did not answer ${what} within ${ms} ms; retry, or narrow the request.`,
      onError: (error) => this.#errorOf(error, what),
      signal,
    });
  }

  #errorOf(error: unknown, what: string): LspFailure {
    if (this.#exited || this.#closing) {
      const tail = this.#proc.stderrTail();
      return lspFailure(
        'server_crashed',
        `The ${this.server.id} language server ended during ${what}.${tail ? ` Its last output: ${tail}` : ''}`,
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    return lspFailure('server_error', `The ${this.server.id} language server refused ${what}: ${message}`);
  }

  /**
   * Asks the server to shut down and exit, then ends its process group after `shutdownGraceMs` whatever it did.
   * Resolves once every process of the group is gone.
   */
  async shutdown(): Promise<void> {
    if (this.#closing) {
      await this.#proc.process.done;
      return;
    }
    this.#closing = true;
    this.#diagnostics.endAll();
    const grace = this.#limits.shutdownGraceMs;
    if (!this.#exited) {
      const polite = (async () => {
        await this.#proc.connection.sendRequest('shutdown');
        await this.#proc.connection.sendNotification('exit');
      })().catch(() => {});
      const graceTimer = new Promise((settle) => setTimeout(settle, grace));
      await Promise.race([polite.then(() => this.#proc.process.done), graceTimer]);
    }
    await this.#proc.process.stop(grace);
    this.#proc.connection.dispose();
  }

  /** SIGKILL to the group at once (process exit handlers). */
  killNow(): void {
    this.#closing = true;
    this.#proc.process.killNow();
  }
}
