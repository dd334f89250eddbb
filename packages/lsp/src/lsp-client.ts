import { pathToFileURL } from 'node:url';
import { type ProtectedNamePolicy, readWorkspaceText, Workspace } from '@bough/workspace';
import { fileStamp, rereadAllowedFile, stampSettled } from '@bough/workspace/internal';
import {
  type DocumentSymbol,
  FileChangeType,
  type FileEvent,
  type Hover,
  type Location,
  type LocationLink,
  type SymbolInformation,
  type WorkspaceEdit,
  type WorkspaceSymbol,
} from 'vscode-languageserver-protocol/node';
import { type LspFailure, lspFailure } from './errors.js';
import { flattenSymbols, kindName, relativeOf, toDiagnostic } from './internal/convert.js';
import { freshDiagnostics, type SyncedDocument } from './internal/fresh-diagnostics.js';
import { groupRssBytes } from './internal/group-rss.js';
import type { LanguageSession } from './internal/language-session.js';
import { SessionPool } from './internal/session-pool.js';
import { applyTextEdits, planEdits, unifiedDiff } from './internal/workspace-edit.js';
import { type LspLimits, resolveLspLimits } from './limits.js';
import type {
  LspDiagnosticsResult,
  LspHoverResult,
  LspLocation,
  LspLocationsResult,
  LspOtherDiagnosticsResult,
  LspOutlineResult,
  LspPosition,
  LspRenamedFile,
  LspRenameResult,
  LspServerStatus,
  LspWorkspaceSymbolsResult,
} from './results.js';
import { type LanguageServerConfig, mergeServers, serverFor } from './servers.js';

/** How an {@link LspClient} is set up. */
export interface LspClientOptions {
  /** Directory every path is confined to; the servers run with it as their root. */
  readonly workspaceRoot: string;
  /** Names no file may be opened under (default the workspace's `DEFAULT_PROTECTED`). */
  readonly protectedNames?: ProtectedNamePolicy;
  /** Servers replacing (same `id`) or added to {@link DEFAULT_LANGUAGE_SERVERS}. */
  readonly servers?: readonly LanguageServerConfig[];
  /** Overrides for {@link DEFAULT_LSP_LIMITS}; a bad one throws when the client is made. */
  readonly limits?: Partial<LspLimits>;
  /** Where the servers' inherited environment comes from (default `process.env`); the allow-list still applies. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Variables set for every server as given. */
  readonly env?: Readonly<Record<string, string>>;
}

/** A document this client opened: the real path the gate found, and the server's copy of it. */
interface KnownDocument {
  readonly path: string;
  readonly session: LanguageSession;
  readonly uri: string;
  readonly relative: string;
  readonly languageId: string;
  readonly version: number;
  /** The file's stamp when the server's copy is known to equal it; undefined when it must be read again. */
  readonly stamp?: string | undefined;
}

/** Options of one request. */
export interface LspCallOptions {
  readonly signal?: AbortSignal;
}

/**
 * A language-server client for one workspace: one server per language (by server id), started on demand, shut down
 * when idle, restarted after a crash within a budget, every process ended by {@link LspClient.dispose}. Paths are
 * workspace paths checked by `@bough/workspace`; each call reads the file from disk and brings the server's copy up to
 * date first, so answers are about the text as it is now. Expected failures are values, never throws.
 */
export class LspClient {
  readonly #options: LspClientOptions;
  readonly #servers: readonly LanguageServerConfig[];
  readonly #limits: LspLimits;
  #workspace?: Promise<Workspace>;
  #pool?: SessionPool;
  /**
   * Documents this client opened, by the path a caller gave, with where the gate found them: while a file's stamp is
   * unchanged a call needs neither the gate's walk nor a read, and a changed file is read again in place.
   */
  readonly #current = new Map<string, KnownDocument>();

  constructor(options: LspClientOptions) {
    this.#options = options;
    this.#limits = resolveLspLimits(options.limits);
    this.#servers = mergeServers(options.servers);
  }

  /** The resolved limits. */
  get limits(): LspLimits {
    return this.#limits;
  }

  /** Whether a configured server answers for this file name (by extension); nothing is started. */
  supports(path: string): boolean {
    return serverFor(this.#servers, path) !== undefined;
  }

  /** Every file extension some configured server answers for (lower case, no dot). */
  extensions(): ReadonlySet<string> {
    return new Set(this.#servers.flatMap((server) => Object.keys(server.extensions)));
  }

  /**
   * The document of `path` without the gate's walk, when this client opened it before and its path still leads to
   * the same place: nothing read or sent while the stamp is the remembered (settled) one; otherwise the file is read
   * again in place (`rereadAllowedFile`) and the server brought up to date. Undefined sends the caller to the gate.
   */
  async #known(path: string): Promise<SyncedDocument | undefined> {
    const known = this.#current.get(path);
    if (!known) return undefined;
    const { session, uri } = known;
    if (!session.alive || session.versionOf(uri) !== known.version) {
      this.#current.delete(path);
      return undefined;
    }
    if (known.stamp !== undefined && fileStamp(known.path) === known.stamp) {
      session.touch(uri);
      return { session, uri, relative: known.relative, version: known.version, sent: false };
    }
    const startedAt = Date.now();
    const again = rereadAllowedFile(known.path, this.#limits.maxFileBytes);
    if (!again) {
      this.#current.delete(path);
      return undefined;
    }
    const { version, sent } = await session.sync(uri, known.languageId, again.text);
    this.#remember(path, { ...known, version }, again.stamp, startedAt);
    return { session, uri, relative: known.relative, version, sent };
  }

  // A stamp is only kept once the file has settled since before the read: then no write the read missed can hide
  // behind it (see `stampSettled`). Without one, the next call reads the file again.
  #remember(path: string, entry: KnownDocument, stamp: string | undefined, readStartedAt: number): void {
    const trusted = stamp !== undefined && stampSettled(stamp, readStartedAt) ? stamp : undefined;
    this.#current.set(path, { ...entry, stamp: trusted });
  }

  async #open(path: string): Promise<SyncedDocument | LspFailure> {
    const known = await this.#known(path);
    if (known) return known;
    let workspace: Workspace;
    try {
      this.#workspace ??= Workspace.open(
        this.#options.workspaceRoot,
        this.#options.protectedNames ? { protectedNames: this.#options.protectedNames } : {},
      );
      workspace = await this.#workspace;
    } catch (error) {
      this.#workspace = undefined;
      return lspFailure('unavailable', `The workspace cannot be opened: ${(error as Error).message}`);
    }
    this.#pool ??= new SessionPool(
      {
        root: workspace.root,
        ...(this.#options.baseEnv ? { baseEnv: this.#options.baseEnv } : {}),
        ...(this.#options.env ? { env: this.#options.env } : {}),
      },
      this.#limits,
    );
    // The read goes through the gate, which resolves the path once and says where the file really is.
    const startedAt = Date.now();
    const read = await readWorkspaceText(workspace, path, { maxBytes: this.#limits.maxFileBytes });
    if (!read.success) return read;
    const chosen = serverFor(this.#servers, read.relative);
    if (!chosen) return lspFailure('unsupported_language', `No language server is configured for ${read.relative}.`);
    const session = await this.#pool.session(chosen.server);
    if ('success' in session) return session;
    const uri = pathToFileURL(read.path).href;
    const { version, sent } = await session.sync(uri, chosen.languageId, read.text);
    // The stamp after the read stands for the text read only if the file had settled before the read began.
    const entry = { path: read.path, session, uri, relative: read.relative, languageId: chosen.languageId, version };
    this.#remember(path, entry, fileStamp(read.path), startedAt);
    return { session, uri, relative: read.relative, version, sent };
  }

  /**
   * Diagnostics of a file as it is on disk now: the server gets the current text (a new version when it changed) and
   * the call waits, at most `diagnosticsWaitMs`, for diagnostics published for exactly that version. A file whose
   * text did not change while others did waits at most `republishWaitMs` for the server to check it again.
   */
  async diagnostics(path: string, options: LspCallOptions = {}): Promise<LspDiagnosticsResult | LspFailure> {
    const doc = await this.#open(path);
    if ('success' in doc) return doc;
    if (options.signal?.aborted) return lspFailure('aborted', 'The request was cancelled.');
    return freshDiagnostics(doc, this.#limits);
  }

  /**
   * What the server answering for `path` last published for every other file, without sending anything: with
   * `settleMs`, first waits (at most `maxWaitMs`, default `republishWaitMs`) until the server has published nothing
   * for that long, so the pass a change started is complete. Nothing runs yet for the language: an empty list.
   */
  async otherDiagnostics(
    path: string,
    options: { readonly settleMs?: number; readonly maxWaitMs?: number } = {},
  ): Promise<LspOtherDiagnosticsResult | LspFailure> {
    const workspace = await this.#workspace?.catch(() => undefined);
    if (!workspace || !this.#pool) return { success: true, files: [], settled: true };
    const target = await workspace.resolve(path, 'read');
    if (!target.success) return target;
    const chosen = serverFor(this.#servers, target.relative);
    if (!chosen) return lspFailure('unsupported_language', `No language server is configured for ${target.relative}.`);
    const session = this.#pool.running().find((s) => s.server.id === chosen.server.id);
    if (!session) return { success: true, files: [], settled: true };
    const settled =
      options.settleMs === undefined
        ? true
        : await session.quiet(options.settleMs, options.maxWaitMs ?? this.#limits.republishWaitMs);
    const files: Array<{ file: string; diagnostics: ReturnType<typeof toDiagnostic>[] }> = [];
    for (const [uri, published] of session.allDiagnostics()) {
      const file = relativeOf(workspace.root, uri);
      if (file === undefined || file === target.relative) continue;
      files.push({ file, diagnostics: published.diagnostics.map(toDiagnostic) });
    }
    return { success: true, files, settled };
  }

  /** The symbols of a file (classes, functions, methods, fields …) with their nesting. */
  async outline(path: string, options: LspCallOptions = {}): Promise<LspOutlineResult | LspFailure> {
    const doc = await this.#open(path);
    if ('success' in doc) return doc;
    const answer = await doc.session.request<(DocumentSymbol | SymbolInformation)[] | null>(
      'textDocument/documentSymbol',
      { textDocument: { uri: doc.uri } },
      options.signal,
    );
    if (answer && 'success' in answer) return answer;
    return { success: true, file: doc.relative, symbols: flattenSymbols(answer ?? []) };
  }

  /** Where the symbol at a position is defined. */
  definition(
    path: string,
    position: LspPosition,
    options: LspCallOptions = {},
  ): Promise<LspLocationsResult | LspFailure> {
    return this.#locations(path, 'textDocument/definition', { position }, options);
  }

  /** Every use of the symbol at a position (its declaration too unless `includeDeclaration` is false). */
  references(
    path: string,
    position: LspPosition,
    options: LspCallOptions & { readonly includeDeclaration?: boolean } = {},
  ): Promise<LspLocationsResult | LspFailure> {
    const context = { includeDeclaration: options.includeDeclaration ?? true };
    return this.#locations(path, 'textDocument/references', { position, context }, options);
  }

  async #locations(
    path: string,
    method: string,
    extra: object,
    options: LspCallOptions,
  ): Promise<LspLocationsResult | LspFailure> {
    const doc = await this.#open(path);
    if ('success' in doc) return doc;
    const answer = await doc.session.request<Location | Location[] | LocationLink[] | null>(
      method,
      { textDocument: { uri: doc.uri }, ...extra },
      options.signal,
    );
    if (answer && 'success' in answer) return answer;
    const root = (await this.#workspace)?.root ?? '';
    const list = answer === null ? [] : Array.isArray(answer) ? answer : [answer];
    const locations: LspLocation[] = [];
    let outside = 0;
    // Answers repeat a few URIs many times (every reference in one file); each is mapped once.
    const files = new Map<string, string | undefined>();
    for (const item of list) {
      const uri = 'targetUri' in item ? item.targetUri : item.uri;
      const range = 'targetUri' in item ? item.targetSelectionRange : item.range;
      if (!files.has(uri)) files.set(uri, relativeOf(root, uri));
      const file = files.get(uri);
      if (file === undefined) outside++;
      else locations.push({ file, range });
    }
    return { success: true, locations, outside };
  }

  /** The server's hover text at a position (type, signature, documentation), as plain text or markdown. */
  async hover(path: string, position: LspPosition, options: LspCallOptions = {}): Promise<LspHoverResult | LspFailure> {
    const doc = await this.#open(path);
    if ('success' in doc) return doc;
    const answer = await doc.session.request<Hover | null>(
      'textDocument/hover',
      { textDocument: { uri: doc.uri }, position },
      options.signal,
    );
    if (answer && 'success' in answer) return answer;
    return { success: true, text: hoverText(answer) };
  }

  /**
   * What renaming the symbol at a position to `newName` would change, as a dry run: the server's workspace edit
   * applied to the files as they are on disk now and returned as one unified diff; nothing is written.
   */
  async rename(
    path: string,
    position: LspPosition,
    newName: string,
    options: LspCallOptions = {},
  ): Promise<LspRenameResult | LspFailure> {
    const doc = await this.#open(path);
    if ('success' in doc) return doc;
    const answer = await doc.session.request<WorkspaceEdit | null>(
      'textDocument/rename',
      { textDocument: { uri: doc.uri }, position, newName },
      options.signal,
    );
    if (answer && 'success' in answer) return answer;
    const workspace = await this.#workspace;
    if (!workspace) return lspFailure('unavailable', 'The workspace is not open.');
    const plan = planEdits(workspace.root, answer);
    const files: LspRenamedFile[] = [];
    const patches: string[] = [];
    for (const [file, edits] of [...plan.byFile].sort(([a], [b]) => a.localeCompare(b))) {
      const read = await readWorkspaceText(workspace, file, { maxBytes: this.#limits.maxFileBytes });
      if (!read.success) return read;
      const after = applyTextEdits(read.text, edits);
      if (after === read.text) continue;
      files.push({ file, ranges: edits.map((e) => e.range) });
      patches.push(unifiedDiff(file, read.text, after));
    }
    const left = [
      ...(plan.outside > 0 ? [`${plan.outside} file(s) outside the workspace`] : []),
      ...(plan.fileOperations > 0 ? [`${plan.fileOperations} file creation(s), move(s) or deletion(s)`] : []),
    ];
    return {
      success: true,
      files,
      patch: patches.join(''),
      ...(left.length > 0
        ? { note: `The server also asked for changes the patch leaves out: ${left.join(', ')}.` }
        : {}),
    };
  }

  /**
   * Symbols matching `query` across the workspace, from the server that answers for `path` (any file of the
   * language). Servers index differently: gopls searches the whole module, clangd what it has indexed or opened.
   */
  async workspaceSymbols(
    path: string,
    query: string,
    options: LspCallOptions = {},
  ): Promise<LspWorkspaceSymbolsResult | LspFailure> {
    const doc = await this.#open(path);
    if ('success' in doc) return doc;
    const answer = await doc.session.request<(SymbolInformation | WorkspaceSymbol)[] | null>(
      'workspace/symbol',
      { query },
      options.signal,
    );
    if (answer && 'success' in answer) return answer;
    const root = (await this.#workspace)?.root ?? '';
    let outside = 0;
    const symbols = (answer ?? []).flatMap((symbol) => {
      const file = relativeOf(root, symbol.location.uri);
      if (file === undefined || !('range' in symbol.location)) {
        outside++;
        return [];
      }
      const range = symbol.location.range;
      return [
        {
          name: symbol.name,
          kind: kindName(symbol.kind),
          ...(symbol.containerName ? { container: symbol.containerName } : {}),
          location: { file, range },
        },
      ];
    });
    return { success: true, symbols, outside };
  }

  /**
   * Tells the running servers that files changed on disk behind the client's back (a command, a formatter, another
   * tool): open copies are re-read and re-sent, and `workspace/didChangeWatchedFiles` names every path.
   */
  async filesChanged(paths: readonly string[]): Promise<void> {
    const workspace = await this.#workspace?.catch(() => undefined);
    if (!workspace || !this.#pool) return;
    for (const session of this.#pool.running()) {
      const events: FileEvent[] = [];
      for (const path of paths) {
        const target = await workspace.resolve(path, 'read');
        if (!target.success) continue;
        const uri = pathToFileURL(target.path).href;
        events.push({ uri, type: target.exists ? FileChangeType.Changed : FileChangeType.Deleted });
        if (session.versionOf(uri) === undefined) continue;
        if (!target.exists) await session.close(uri);
        else await this.#open(path);
      }
      await session.filesChanged(events);
    }
  }

  /** The servers running now, with their memory. */
  running(): LspServerStatus[] {
    const now = Date.now();
    return (this.#pool?.running() ?? []).map((session) => {
      const rss = groupRssBytes(session.pid);
      return {
        server: session.server.id,
        pid: session.pid,
        ...(rss !== undefined ? { rssBytes: rss } : {}),
        openDocuments: session.openDocuments,
        idleMs: now - session.lastUsed,
      };
    });
  }

  /** Shuts every server down and resolves once all their processes are gone; the client refuses later calls. */
  async dispose(): Promise<void> {
    this.#pool ??= new SessionPool({ root: this.#options.workspaceRoot }, this.#limits);
    await this.#pool.dispose();
  }
}

function hoverText(hover: Hover | null): string {
  if (!hover) return '';
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  return parts
    .map((part) => (typeof part === 'string' ? part : part.value))
    .join('\n\n')
    .trim();
}
