import { extensionOf } from '@bough/workspace/internal';

/** Which program serves which files, how to start it, and what to tell a user who does not have it. */
export interface LanguageServerConfig {
  /** Stable name of the server (`gopls`); one server runs per workspace root and id. */
  readonly id: string;
  /** File extensions (no dot, lower case) this server answers for, each with the LSP `languageId` sent on open. */
  readonly extensions: Readonly<Record<string, string>>;
  /** The argv that starts it speaking LSP on stdin/stdout; the program is looked up on the child's PATH. */
  readonly command: readonly string[];
  /** How a user installs the program; quoted in the `unavailable` failure. */
  readonly install: string;
  /** Environment names (a trailing `*` is a prefix) passed through besides the process allow-list. */
  readonly inheritEnv?: readonly string[];
  /** Sent as `initializationOptions` in `initialize`. */
  readonly initializationOptions?: unknown;
}

/**
 * The servers used when a caller configures none. Each entry can be replaced (same `id`) or extended through the
 * `servers` option; rust-analyzer is configuration only here (no package is installable on the machines we test on).
 */
export const DEFAULT_LANGUAGE_SERVERS: readonly LanguageServerConfig[] = Object.freeze<LanguageServerConfig[]>([
  {
    id: 'typescript-language-server',
    extensions: {
      ts: 'typescript',
      mts: 'typescript',
      cts: 'typescript',
      tsx: 'typescriptreact',
      js: 'javascript',
      mjs: 'javascript',
      cjs: 'javascript',
      jsx: 'javascriptreact',
    },
    command: ['typescript-language-server', '--stdio'],
    install: 'npm install -g typescript-language-server typescript',
  },
  {
    id: 'pyright',
    extensions: { py: 'python', pyi: 'python' },
    command: ['pyright-langserver', '--stdio'],
    install: 'npm install -g pyright (or pip install basedpyright and use basedpyright-langserver --stdio)',
    inheritEnv: ['VIRTUAL_ENV', 'PYTHONPATH'],
  },
  {
    id: 'gopls',
    extensions: { go: 'go' },
    command: ['gopls'],
    install: 'go install golang.org/x/tools/gopls@latest (Debian/Ubuntu: apt-get install gopls golang-go)',
    inheritEnv: ['GO*', 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME'],
  },
  {
    id: 'rust-analyzer',
    extensions: { rs: 'rust' },
    command: ['rust-analyzer'],
    install: 'rustup component add rust-analyzer',
    inheritEnv: ['CARGO_HOME', 'RUSTUP_HOME', 'RUSTUP_TOOLCHAIN'],
  },
  {
    id: 'clangd',
    extensions: {
      c: 'c',
      h: 'c',
      cc: 'cpp',
      cpp: 'cpp',
      cxx: 'cpp',
      hh: 'cpp',
      hpp: 'cpp',
      hxx: 'cpp',
    },
    // Errors only on stderr: at its default level clangd logs every request and reply there, which the client would
    // read (and wake up for) on every call while keeping only the last lines, for failure messages.
    command: ['clangd', '--background-index=false', '--log=error'],
    install: 'apt-get install clangd (or the clangd of your LLVM distribution)',
  },
]);

/** The servers a client uses: the defaults, with entries of the same `id` replaced and new ones added. */
export function mergeServers(overrides: readonly LanguageServerConfig[] = []): readonly LanguageServerConfig[] {
  const byId = new Map(DEFAULT_LANGUAGE_SERVERS.map((server) => [server.id, server]));
  for (const server of overrides) byId.set(server.id, server);
  return [...byId.values()];
}

/** The server that answers for a file, by its extension; the last configured one wins when two claim it. */
export function serverFor(
  servers: readonly LanguageServerConfig[],
  relative: string,
): { server: LanguageServerConfig; languageId: string } | undefined {
  const ext = extensionOf(relative);
  for (let i = servers.length - 1; i >= 0; i--) {
    const server = servers[i] as LanguageServerConfig;
    const languageId = server.extensions[ext];
    if (languageId !== undefined) return { server, languageId };
  }
  return undefined;
}
