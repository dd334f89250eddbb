import { fileURLToPath } from 'node:url';
import { ConfigurationError, type Tool, type ToolRegistry, toMcpTool } from '@bough/core';
import { type CallToolResult, type ListToolsResult, Server } from '@modelcontextprotocol/server';
import { toCallToolResult, toToolResult } from './internal/call-result.js';
import { outputSchemaOf } from './internal/output-schema.js';
import { progressNotifier } from './internal/progress.js';
import { MCP_LIMITS, type McpLimits } from './limits.js';
import { checkRoot, RootRouter } from './roots.js';

/** A registry, or a function returning the registry to serve (read again on every request). */
export type RegistrySource = ToolRegistry | (() => ToolRegistry);

/** What the client's roots came to: the directories now served and the ones refused (with the reason). */
export interface RootsUpdate {
  readonly roots: readonly string[];
  readonly refused: readonly string[];
}

/**
 * Directories to serve, each with a registry of its own (its own workspace gate and file state). Without `roots`
 * the server asks the client (MCP roots) and follows its changes; until it has one, tool calls fail with `no_roots`.
 */
export interface ServedRoots {
  /** Directories to serve, first one first (relative paths resolve against it). Checked with `checkRoot`. */
  readonly roots?: readonly string[];
  /** Builds the registry of one root; called at most once per root per server, so per session. */
  readonly registryFor: (root: string) => ToolRegistry;
  /** Listed before any root is known (never invoked); defaults to the first root's registry. */
  readonly catalog?: ToolRegistry;
  /** Told whenever the client's roots were read (for logging to stderr). */
  readonly onRoots?: (update: RootsUpdate) => void;
  /**
   * Called with each registry `registryFor` built once the server no longer uses it: its root was dropped from the
   * client's roots, or the server (for HTTP: the session) closed. Frees what the registry holds, such as background
   * jobs (the coding toolkit's `dispose`).
   */
  readonly release?: (registry: ToolRegistry, root: string) => void | Promise<void>;
}

/** Options for {@link createMcpServer}. */
export interface McpServerOptions {
  /** Server name reported to clients during initialisation. */
  readonly name: string;
  /** Server version reported to clients during initialisation. */
  readonly version: string;
  /** Optional per-call timeout handed to the registry; by default each tool's own limits apply. */
  readonly timeoutMs?: number;
  /** Optional instructions shown to the client (how to use this set of tools). */
  readonly instructions?: string;
  /** How long to wait for the client's answer to roots/list (default `rootsTimeoutMs` of the limits). */
  readonly rootsTimeoutMs?: number;
  /**
   * Overrides of `toolListTtlMs` (how long a 2026-07-28 client may cache tools/list) and `progressIntervalMs`; a bad
   * value throws a `ConfigurationError` naming the key.
   */
  readonly limits?: Partial<Pick<McpLimits, 'toolListTtlMs' | 'progressIntervalMs'>>;
  /**
   * Advertise each tool's `outputSchema` in tools/list (default false). Results carry `structuredContent` either
   * way; the schemas are for clients that validate or consume it, and they are most of the list (about 9,750 of
   * 11,800 o200k tokens for the coding toolkit), which some clients put in front of the model.
   */
  readonly outputSchemas?: boolean;
}

type McpToolEntry = ListToolsResult['tools'][number];

/**
 * The tools/list entry of each tool, built once per tool for one server factory (whose `outputSchemas` choice is
 * fixed), so a list request copies no schema.
 */
function listEntries(outputSchemas: boolean): (tool: Tool) => McpToolEntry {
  const cache = new WeakMap<Tool, McpToolEntry>();
  return (tool) => {
    let entry = cache.get(tool);
    if (!entry) {
      const base = toMcpTool(tool);
      // MCP requires an object schema at the root; a union of objects still validates the same with the type added.
      const inputSchema =
        base.inputSchema.type === 'object' ? base.inputSchema : { ...base.inputSchema, type: 'object' };
      entry = {
        ...base,
        inputSchema,
        ...(outputSchemas ? { outputSchema: outputSchemaOf(tool) } : {}),
      } as McpToolEntry;
      cache.set(tool, entry);
    }
    return entry;
  };
}

function isServedRoots(source: RegistrySource | ServedRoots): source is ServedRoots {
  return typeof source === 'object' && source !== null && typeof (source as ServedRoots).registryFor === 'function';
}

interface Dispatch {
  list(): Tool[];
  invoke(name: string, args: unknown, options: Parameters<ToolRegistry['invoke']>[2]): Promise<CallToolResult>;
  /** Wires what one served instance needs: reading the client's roots when none were given. */
  attach?(server: Server): void;
  /** Lets go of every registry built for the served roots. */
  release(): void;
}

function registryDispatch(source: RegistrySource): Dispatch {
  const registry = typeof source === 'function' ? source : () => source;
  return {
    list: () => registry().list(),
    invoke: async (name, args, options) => {
      const served = registry();
      return toCallToolResult(await served.invoke(name, args, options), served.get(name));
    },
    release: () => {},
  };
}

function rootsDispatch(source: ServedRoots, options: McpServerOptions): Dispatch {
  const router = new RootRouter(source.registryFor, source.release);
  const release = () => router.releaseAll();
  const fixed = source.roots ?? [];
  if (fixed.length > 0) {
    const checked = fixed.map((dir) => checkRoot(dir));
    const bad = checked.flatMap((check) => (check.success ? [] : [check.reason]));
    if (bad.length > 0) throw new ConfigurationError(`Cannot serve ${bad.join('; ')}.`);
    router.setRoots(checked.flatMap((check) => (check.success ? [check.root] : [])));
    return { list: () => catalog(router, source), invoke: (n, a, o) => routed(router, n, a, o), release };
  }
  let pending: Promise<void> | undefined;
  return {
    list: () => catalog(router, source),
    invoke: async (name, args, opts) => {
      if (pending) await pending;
      return routed(router, name, args, opts);
    },
    // Only a 2025-era connection has roots to read: the 2026-07-28 revision has no server-to-client requests, so a
    // client on it gets `no_roots` until the server is started with directories.
    attach: (server) => {
      const refresh = () => {
        pending = readClientRoots(server, router, source, options).finally(() => {
          pending = undefined;
        });
      };
      server.oninitialized = refresh;
      server.setNotificationHandler('notifications/roots/list_changed', async () => refresh());
    },
    release,
  };
}

function catalog(router: RootRouter, source: ServedRoots): Tool[] {
  const first = router.roots[0];
  if (source.catalog) return source.catalog.list();
  return first === undefined ? [] : router.registry(first).list();
}

async function routed(
  router: RootRouter,
  name: string,
  args: unknown,
  options: Parameters<ToolRegistry['invoke']>[2],
): Promise<CallToolResult> {
  const target = router.route(name, args);
  if ('refusal' in target) return toToolResult(target.refusal, true);
  const served = router.registry(target.root);
  // The routing parse is handed on; the registry uses it only if that root's tool has the very same schema.
  const call = await served.invoke(name, args, target.parsed ? { ...options, parsed: target.parsed } : options);
  return toCallToolResult(call, served.get(name));
}

async function readClientRoots(
  server: Server,
  router: RootRouter,
  source: ServedRoots,
  options: McpServerOptions,
): Promise<void> {
  if (!server.getClientCapabilities()?.roots) {
    source.onRoots?.({ roots: [], refused: ['the client does not offer MCP roots'] });
    return;
  }
  const refused: string[] = [];
  const accepted: string[] = [];
  // createMcpServer resolved it already; the fallback only serves direct callers of rootsDispatch.
  const timeout = options.rootsTimeoutMs ?? MCP_LIMITS.defaults.rootsTimeoutMs;
  try {
    const { roots } = await server.listRoots(undefined, { timeout });
    for (const root of roots) {
      if (!root.uri.startsWith('file://')) {
        refused.push(`${root.uri} is not a file:// URI`);
        continue;
      }
      let path: string;
      try {
        path = fileURLToPath(root.uri);
      } catch {
        refused.push(`${root.uri} is not a local file URI`);
        continue;
      }
      const check = checkRoot(path, '/');
      if (check.success) accepted.push(check.root);
      else refused.push(check.reason);
    }
  } catch (error) {
    refused.push(`roots/list failed: ${(error as Error).message}`);
    source.onRoots?.({ roots: router.roots, refused });
    return;
  }
  router.setRoots(accepted);
  source.onRoots?.({ roots: accepted, refused });
}

/** Builds server instances that all serve one set of registries; `release` lets go of them when serving ends. */
export interface ServerFactory {
  readonly create: () => Server;
  readonly release: () => void;
}

/**
 * The factory behind every transport: the served registries (or roots) are set up once, and each instance the SDK
 * asks for (a stdio connection, or one HTTP request on the stateless transport) serves those same registries, so
 * their file state outlives the request. Checks every option before anything is served.
 */
export function mcpServerFactory(source: RegistrySource | ServedRoots, options: McpServerOptions): ServerFactory {
  // Resolved once, here: a bad value throws naming the key before the server answers anything.
  const { rootsTimeoutMs, toolListTtlMs, progressIntervalMs } = MCP_LIMITS.resolve({
    rootsTimeoutMs: options.rootsTimeoutMs,
    ...options.limits,
  });
  const dispatch = isServedRoots(source)
    ? rootsDispatch(source, { ...options, rootsTimeoutMs })
    : registryDispatch(source);
  const listEntry = listEntries(options.outputSchemas === true);
  const create = () => {
    const server = new Server(
      { name: options.name, version: options.version },
      {
        capabilities: { tools: {} },
        ...(options.instructions ? { instructions: options.instructions } : {}),
        // The list only changes when the server restarts; clients on 2026-07-28 may keep it this long.
        cacheHints: { 'tools/list': { ttlMs: toolListTtlMs, cacheScope: 'private' } },
      },
    );
    dispatch.attach?.(server);
    server.setRequestHandler('tools/list', async () => ({
      tools: dispatch.list().map(listEntry),
    }));
    server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
      const token = request.params._meta?.progressToken;
      const progress =
        token === undefined
          ? undefined
          : progressNotifier(token, progressIntervalMs, (note) => ctx.mcpReq.notify(note));
      try {
        const result = await dispatch.invoke(request.params.name, request.params.arguments ?? {}, {
          signal: ctx.mcpReq.signal,
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
          ...(progress ? { progress: progress.report } : {}),
        });
        return server.projectCallToolResult(result, undefined);
      } finally {
        progress?.stop();
      }
    });
    return server;
  };
  return { create, release: () => dispatch.release() };
}

/**
 * Builds a low-level MCP `Server` exposing tools through tools/list and tools/call: one registry, or served roots
 * with a registry per root. Every outcome of a call, including invalid arguments, unknown tools and typed failures,
 * comes back as a result (with `isError` when it failed), never as a protocol error. The text of a result is what a
 * model needs to read; the whole response is in `structuredContent`, described by each tool's `outputSchema` when
 * `outputSchemas` asks for them.
 * Progress is forwarded when the client asked for it (at most one notification per `progressIntervalMs`). The
 * instance speaks the 2025 protocol over whatever transport it is connected to; `serveStdio` and `serveHttp` also
 * serve the 2026-07-28 revision. Closing it releases the registries built for its roots.
 */
export function createMcpServer(source: RegistrySource | ServedRoots, options: McpServerOptions): Server {
  const factory = mcpServerFactory(source, options);
  const server = factory.create();
  server.onclose = () => factory.release();
  return server;
}
