import { resolve } from 'node:path';
import { DEFAULT_CODING_TOOLS } from '@bough/coding';
import type { ToolRegistry } from '@bough/core';
import { checkRoot, generateToken, type ServedRoots, serveHttp, serveStdio } from '@bough/mcp';
import type { SandboxMode } from '@bough/process';
import { flag, has, type ParsedArgs, sandboxFlags, UsageError } from '../args.js';
import { type JobWatchdog, jobWatchdog, watchBackgroundJobs } from '../internal/job-watchdog.js';
import { argsForProfile, profiledBuild, profileOf } from '../internal/mcp-profile.js';
import { sandboxNotice } from '../internal/sandbox-notice.js';
import type { CliIO } from '../output.js';
import { ownedToolkitBranch, standaloneTools, toolList } from '../toolset.js';
import { VERSION } from '../version.js';

/**
 * The toolkit tools served by default: everything but `context`, which only makes sense in a curated conversation
 * (`cliToolNames` adds `jobs`, which stops what bash started with `background: true`).
 */
const MCP_TOOLS = DEFAULT_CODING_TOOLS.filter((name) => name !== 'context');

/** Where a catalog registry (listed before the client gave roots, never invoked) pretends to live. */
const NO_ROOT = resolve('/', 'nonexistent-bough-mcp-catalog');

/** Parses `--http [HOST:]PORT`; the host defaults to 127.0.0.1. */
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-f:.]+\]|[^:]+):)?(\d{1,5})$/i.exec(value);
  const port = Number(match?.[2]);
  if (!match || !Number.isInteger(port) || port > 65_535) {
    throw new UsageError(`--http needs [HOST:]PORT, e.g. 8123 or 127.0.0.1:8123 (got ${JSON.stringify(value)}).`);
  }
  const host = match[1]?.replace(/^\[(.*)\]$/, '$1') ?? '127.0.0.1';
  return { host, port };
}

/** The directories named on the command line (`--workspace` first), each checked; none means "ask the client". */
export function servedDirectories(args: ParsedArgs, cwd: string): string[] {
  const named = [...(flag(args, 'workspace') ? [flag(args, 'workspace') as string] : []), ...args.positionals];
  return named.map((dir) => {
    // An empty argument (an unset variable in `bough mcp "$DIR"`) would otherwise name the current directory.
    if (dir.trim() === '') throw new UsageError('Cannot serve an empty directory name; pass the directory to serve.');
    const check = checkRoot(dir, cwd);
    if (!check.success) throw new UsageError(`Cannot serve ${check.reason}.`);
    return check.root;
  });
}

/** Builds one root's registry; `releaseAll` ends what every registry built holds (their background jobs). */
interface RegistryBuilder {
  readonly build: (root: string) => ToolRegistry;
  readonly release: (registry: ToolRegistry) => Promise<void>;
  readonly releaseAll: () => Promise<void>;
  /** The OS sandbox mode commands run in (`auto` unless `--sandbox` says otherwise). */
  readonly sandbox: SandboxMode;
  /** The toolkit registry behind a served one (itself unless `--profile` serves dialect tools in front of it). */
  readonly toolkitOf: (registry: ToolRegistry) => ToolRegistry;
}

function registryBuilder(args: ParsedArgs): RegistryBuilder {
  const owned = new Map<ToolRegistry, () => Promise<void>>();
  const release = async (registry: ToolRegistry) => {
    const dispose = owned.get(registry);
    owned.delete(registry);
    await dispose?.();
  };
  const releaseAll = async () => {
    await Promise.all([...owned.keys()].map(release));
  };
  // Front doors start safe: commands run in the OS sandbox where it works unless `--sandbox off` says otherwise.
  const sandbox = { commandSandbox: 'auto' as SandboxMode, ...sandboxFlags(args) };
  // --profile: the toolkit is served through another harness's tool names; releasing a served registry ends its toolkit.
  const profile = profileOf(args);
  const inner = new Map<ToolRegistry, ToolRegistry>();
  const toolkit = buildFor(argsForProfile(args, profile), sandbox, jobWatchdog(), (registry, dispose) =>
    owned.set(registry, dispose),
  );
  const build = profiledBuild(profile, toolkit, inner);
  const releaseServed = (registry: ToolRegistry) => release(inner.get(registry) ?? registry);
  const toolkitOf = (registry: ToolRegistry) => inner.get(registry) ?? registry;
  return { build, release: releaseServed, releaseAll, sandbox: sandbox.commandSandbox, toolkitOf };
}

function buildFor(
  args: ParsedArgs,
  sandbox: { commandSandbox: SandboxMode; network?: boolean },
  watchdog: JobWatchdog,
  own: (registry: ToolRegistry, dispose: () => Promise<void>) => void,
): (root: string) => ToolRegistry {
  const only = toolList(flag(args, 'tools'));
  // --durable: the editor fsyncs each new content before putting it in place (off by default, like the reference).
  const durable = has(args, 'durable');
  if (has(args, 'standalone')) {
    return (root) => {
      const { registry, bash } = standaloneTools(root, only, {
        durable,
        sandbox: sandbox.commandSandbox,
        ...(sandbox.network ? { network: true } : {}),
      });
      own(registry, () => bash.dispose());
      watchBackgroundJobs(registry, watchdog);
      return registry;
    };
  }
  if (only?.includes('context')) {
    throw new UsageError('The context tool curates a conversation; an MCP server has none to curate. Drop it.');
  }
  return (root) => {
    // No nudge notes: they describe a conversation the server does not hold.
    const { branch, dispose } = ownedToolkitBranch(root, {
      name: 'mcp',
      ...(only ? { tools: only } : {}),
      defaultTools: MCP_TOOLS,
      notify: false,
      durable,
      ...sandbox,
    });
    own(branch.registry, dispose);
    watchBackgroundJobs(branch.registry, watchdog);
    return branch.registry;
  };
}

/**
 * `bough mcp [DIR…]`: serves the coding toolkit (or `--standalone` tools, or a `--tools` subset) over MCP, on stdio
 * or with `--http [HOST:]PORT` over streamable HTTP. Each directory gets its own registry (its own workspace gate and
 * read-before-edit state); without directories the client's MCP roots are served. The cwd is never served implicitly.
 */
export async function mcpCommand(args: ParsedArgs, io: CliIO, signal?: AbortSignal): Promise<number> {
  const roots = servedDirectories(args, io.cwd);
  const builder = registryBuilder(args);
  const registryFor = builder.build;
  // Build once up front: a bad --tools list is reported before anything is served, and the listing is ready.
  const catalog = registryFor(roots[0] ?? NO_ROOT);
  const tools = catalog.names().join(', ');
  const notice = sandboxNotice('mcp', builder.sandbox, builder.toolkitOf(catalog).names());
  if (notice) io.stderr(notice);
  const source: ServedRoots = {
    roots,
    registryFor: (root) => (root === roots[0] ? catalog : registryFor(root)),
    catalog,
    // A dropped root's toolkit ends its background jobs; the catalog lives as long as we do.
    release: (registry) => (registry === catalog ? undefined : builder.release(registry)),
    onRoots: ({ roots: served, refused }) => {
      for (const reason of refused) io.stderr(`bough mcp: client root refused: ${reason}\n`);
      io.stderr(`bough mcp: serving ${served.length > 0 ? served.join(', ') : 'nothing yet (no usable roots)'}\n`);
    },
  };
  const where = roots.length > 0 ? roots.join(', ') : "the client's MCP roots";
  const instructions =
    `Tools for working on the files under ${where}. Paths are relative to the first directory, or absolute inside ` +
    'one of them. Read a file before editing it.';
  // --output-schemas: advertise each tool's outputSchema (off by default: clients that put it in front of the model
  // pay for it on every request, and structuredContent is sent either way).
  const outputSchemas = has(args, 'output-schemas');
  const listen = flag(args, 'http');
  if (listen !== undefined) {
    const { host, port } = parseListen(listen);
    if (roots.length === 0) {
      // Stateless HTTP answers each request on its own: there is no connection to ask for the client's roots.
      throw new UsageError('bough mcp --http needs the directories to serve: bough mcp --http PORT DIR…');
    }
    const given = io.env.BOUGH_MCP_TOKEN;
    const token = given && given.length > 0 ? given : generateToken();
    const http = await serveHttp(source, {
      name: 'bough',
      version: VERSION,
      instructions,
      host,
      port,
      token,
      outputSchemas,
    });
    // The token first: a client (or a test) that waits for the address line then finds the token already printed.
    if (!given) io.stderr(`bough mcp: bearer token (set BOUGH_MCP_TOKEN to choose one): ${token}\n`);
    io.stderr(`bough mcp: serving ${tools} for ${where} at ${http.url}\n`);
    if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
      io.stderr(`bough mcp: warning: listening on ${host}, not only on this machine's loopback.\n`);
    }
    await new Promise<void>((done) => {
      if (signal?.aborted) done();
      signal?.addEventListener('abort', () => done(), { once: true });
    });
    await http.close();
    await builder.releaseAll();
    return 0;
  }
  io.stderr(`bough mcp: serving ${tools} for ${where}\n`);
  try {
    await serveStdio(source, {
      name: 'bough',
      version: VERSION,
      instructions,
      outputSchemas,
      ...(signal ? { signal } : {}),
    });
  } finally {
    // Every toolkit ends its background jobs (the catalog's too: it serves the first root), then the server exits.
    await builder.releaseAll();
  }
  return 0;
}
