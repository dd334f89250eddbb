import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, ToolRegistry } from '@bough/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkRoot, RootRouter } from './roots.js';
import { createMcpServer, type ServedRoots } from './server.js';

/** A registry whose one tool says which root it serves and echoes its path. */
function whereTool(root: string): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register([
    defineTool({
      name: 'where',
      description: 'Says which root served the call.',
      request: z.object({ path: z.string().optional(), paths: z.array(z.string()).optional() }).strict(),
      response: z.object({ success: z.literal(true), root: z.string(), path: z.string().optional() }),
      handler: async ({ path }) => ({ success: true as const, root, ...(path ? { path } : {}) }),
      touches: ({ path, paths }) => ({ read: [...(path ? [path] : []), ...(paths ?? [])] }),
    }),
    // Names no field a guess would take for a path: only its declaration says what it touches.
    defineTool({
      name: 'copy',
      description: 'Copies one file to another name.',
      request: z.object({ src: z.string(), dst: z.string() }).strict(),
      handler: async () => ({ success: true as const, root }),
      touches: ({ src, dst }) => ({ read: [src], create: [dst] }),
    }),
    defineTool({
      name: 'undeclared',
      description: 'Declares nothing about what it touches.',
      request: z.object({ path: z.string() }).strict(),
      handler: async () => ({ success: true as const, root }),
    }),
  ]);
  return registry;
}

let dir: string;
let a: string;
let b: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bough-roots-'));
  a = join(dir, 'a');
  b = join(dir, 'b');
  mkdirSync(a);
  mkdirSync(b);
  writeFileSync(join(dir, 'file.txt'), 'x');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('checkRoot', () => {
  it('accepts a directory (by its real path) and refuses /, files and missing paths', () => {
    expect(checkRoot(a)).toEqual({ success: true, root: a });
    expect(checkRoot('/')).toMatchObject({ success: false, reason: expect.stringMatching(/file system root/) });
    expect(checkRoot(join(dir, 'file.txt'))).toMatchObject({
      success: false,
      reason: expect.stringMatching(/not a dir/),
    });
    expect(checkRoot(join(dir, 'missing'))).toMatchObject({
      success: false,
      reason: expect.stringMatching(/not exist/),
    });
  });
});

describe('RootRouter', () => {
  it('sends relative paths to the first root and absolute ones to the root holding them', () => {
    const router = new RootRouter(whereTool);
    router.setRoots([a, b]);
    expect(router.route('where', { path: 'x.txt' })).toMatchObject({ root: a });
    expect(router.route('where', { path: join(b, 'y.txt') })).toMatchObject({ root: b });
    expect(router.route('where', {})).toMatchObject({ root: a });
    expect(router.route('where', { path: '/etc/hostname' })).toMatchObject({
      refusal: { error_code: 'outside_roots' },
    });
    expect(router.route('where', { path: `${a}-sibling/x` })).toMatchObject({
      refusal: { error_code: 'outside_roots' },
    });
    expect(router.route('where', { paths: ['x', join(b, 'y')] })).toMatchObject({
      refusal: { error_code: 'mixed_roots' },
    });
  });

  it("routes by the called tool's own declaration of what it touches, not by field names", () => {
    const router = new RootRouter(whereTool);
    router.setRoots([a, b]);
    expect(router.route('copy', { src: join(b, 'x'), dst: join(b, 'y') })).toMatchObject({ root: b });
    expect(router.route('copy', { src: join(b, 'x'), dst: '/etc/cron.d/job' })).toMatchObject({
      refusal: { error_code: 'outside_roots' },
    });
    expect(router.route('copy', { src: join(a, 'x'), dst: join(b, 'y') })).toMatchObject({
      refusal: { error_code: 'mixed_roots' },
    });
    // Arguments the schema refuses, a tool without a declaration, an unknown tool: the first root, whose own
    // gate and validation answer the call.
    expect(router.route('copy', { src: 1 })).toEqual({ root: a });
    expect(router.route('undeclared', { path: join(b, 'x') })).toEqual({ root: a });
    expect(router.route('missing', { path: join(b, 'x') })).toEqual({ root: a });
  });

  it('answers no_roots until it has a root', () => {
    expect(new RootRouter(whereTool).route('where', { path: 'x' })).toMatchObject({
      refusal: { error_code: 'no_roots' },
    });
  });
});

async function clientWithRoots(source: ServedRoots, roots?: { uri: string }[]) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(source, { name: 't', version: '1' }).connect(serverSide);
  const client = new Client(
    { name: 'c', version: '1' },
    roots ? { capabilities: { roots: { listChanged: true } } } : { capabilities: {} },
  );
  let current = roots ?? [];
  if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: current }));
  await client.connect(clientSide);
  return {
    client,
    setRoots: async (next: { uri: string }[]) => {
      current = next;
      await client.sendRootsListChanged();
    },
  };
}

const root = (path: string) => ({ uri: `file://${path}` });
const call = (client: Client, args: Record<string, unknown>) => client.callTool({ name: 'where', arguments: args });

describe('served roots over MCP', () => {
  it('serves exactly the given directories, each with its own registry', async () => {
    const { client } = await clientWithRoots({ roots: [a, b], registryFor: whereTool });
    expect((await call(client, { path: 'x' })).structuredContent).toMatchObject({ root: a });
    expect((await call(client, { path: join(b, 'y') })).structuredContent).toMatchObject({ root: b });
    const outside = await call(client, { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
    expect(outside.structuredContent).toMatchObject({ error_code: 'outside_roots' });
    await client.close();
  });

  it('refuses / as a root before serving', () => {
    expect(() => createMcpServer({ roots: ['/'], registryFor: whereTool }, { name: 't', version: '1' })).toThrow(
      /file system root/,
    );
  });

  it('answers no_roots when the client offers no roots', async () => {
    const { client } = await clientWithRoots({ registryFor: whereTool, catalog: whereTool('/none') });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['where', 'copy', 'undeclared']);
    const result = await call(client, { path: 'x' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error_code: 'no_roots' });
    await client.close();
  });

  it("serves the client's roots, refuses / among them, and follows list_changed", async () => {
    const updates: string[][] = [];
    let changed: (() => void) | undefined;
    const source: ServedRoots = {
      registryFor: whereTool,
      catalog: whereTool('/none'),
      onRoots: (update) => {
        updates.push([...update.roots]);
        changed?.();
      },
    };
    const { client, setRoots } = await clientWithRoots(source, [{ uri: 'file:///' }, root(a)]);
    expect((await call(client, { path: 'x' })).structuredContent).toMatchObject({ root: a });
    // Waits for the server to have read the changed roots (its onRoots report), not for a guessed delay.
    const reread = new Promise<void>((resolve) => {
      changed = resolve;
    });
    await setRoots([root(b)]);
    await reread;
    expect((await call(client, { path: 'x' })).structuredContent).toMatchObject({ root: b });
    expect((await call(client, { path: join(a, 'x') })).structuredContent).toMatchObject({
      error_code: 'outside_roots',
    });
    expect(updates).toEqual([[a], [b]]);
    await client.close();
  });
});

describe('a routed call', () => {
  it("is parsed once: the router's parse of the arguments is the one the tool runs with", async () => {
    let parses = 0;
    const counted = (served: string) => {
      const registry = new ToolRegistry();
      registry.register(
        defineTool({
          name: 'where',
          description: 'Counts how often its arguments are parsed.',
          request: z
            .object({ path: z.string() })
            .strict()
            .transform((request) => {
              parses++;
              return request;
            }),
          handler: async ({ path }) => ({ success: true as const, root: served, path }),
          touches: ({ path }) => ({ read: [path] }),
        }),
      );
      return registry;
    };
    const { client } = await clientWithRoots({ roots: [a, b], registryFor: counted });
    expect((await call(client, { path: 'x' })).structuredContent).toMatchObject({ root: a, path: 'x' });
    expect(parses).toBe(1);
    await client.close();
  });
});

describe('RootRouter release', () => {
  it('hands a registry to the release hook once its root is dropped, and every registry when all are released', () => {
    const released: string[] = [];
    const router = new RootRouter(whereTool, (_registry, root) => {
      released.push(root);
    });
    router.setRoots(['/srv/a', '/srv/b']);
    const a = router.registry('/srv/a');
    router.registry('/srv/b');
    router.setRoots(['/srv/a']);
    expect(released).toEqual(['/srv/b']);
    expect(router.registry('/srv/a')).toBe(a);
    router.releaseAll();
    expect(released).toEqual(['/srv/b', '/srv/a']);
    expect(router.registry('/srv/a')).not.toBe(a);
  });
});
