import { LspClient, type LspClientOptions } from '@bough/lsp';
import type { ProtectedNamePolicy } from '@bough/workspace';

/**
 * How the toolkit runs language servers (`@bough/lsp`) for the files ruff and TypeScript do not cover: which servers
 * (defaults: gopls, clangd, rust-analyzer, …), their limits (idle shutdown, waits) and environment.
 */
export type LanguageServerSettings = Omit<LspClientOptions, 'workspaceRoot' | 'protectedNames'>;

/**
 * The language-server clients of one toolkit: one per workspace root (the workspace, or a sandbox worktree), made
 * when a tool of that root is built. A client starts nothing by itself; a server starts on the first call about a file
 * of its language, stops after `idleShutdownMs` unused, and {@link LanguageServers.dispose} ends every process.
 */
export class LanguageServers {
  readonly #settings: LanguageServerSettings;
  readonly #protectedNames: ProtectedNamePolicy | undefined;
  readonly #clients = new Map<string, LspClient>();
  #disposed = false;

  constructor(settings: LanguageServerSettings, protectedNames?: ProtectedNamePolicy) {
    this.#settings = settings;
    this.#protectedNames = protectedNames;
  }

  /** The client of a root (made on first use); undefined once disposed, so tools built later run without one. */
  clientFor(root: string): LspClient | undefined {
    if (this.#disposed) return undefined;
    let client = this.#clients.get(root);
    if (!client) {
      client = new LspClient({
        ...this.#settings,
        workspaceRoot: root,
        ...(this.#protectedNames ? { protectedNames: this.#protectedNames } : {}),
      });
      this.#clients.set(root, client);
    }
    return client;
  }

  /** Shuts every server of every root down; resolves once their processes are gone. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(clients.map((client) => client.dispose()));
  }
}
