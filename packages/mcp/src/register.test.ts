import { fileURLToPath } from 'node:url';
import { ConfigurationError, defineTool, ToolRegistry, toolJsonSchema } from '@bough/core';
import { Client, InMemoryTransport as ClientMemoryTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { McpClient } from './client-source.js';
import { type McpRegistration, registerMcpServer } from './register.js';
import { createMcpServer } from './server.js';

const fixture = fileURLToPath(new URL('./fixtures/remote-server.mjs', import.meta.url));
const stdio = { command: process.execPath, args: [fixture], stderr: 'ignore' as const };
const open: McpRegistration[] = [];
afterEach(async () => {
  for (const registration of open.splice(0)) await registration.close();
});

async function register(registry: ToolRegistry, options?: Parameters<typeof registerMcpServer>[2]) {
  const registration = await registerMcpServer(registry, { server: 'remote', client: stdio }, options);
  open.push(registration);
  return registration;
}

describe('registerMcpServer over stdio', () => {
  it('registers every remote tool under mcp__{server}__{tool} with its schema passed through', async () => {
    const registry = new ToolRegistry();
    const registration = await register(registry);
    expect(registry.names()).toEqual([
      'mcp__remote__echo',
      'mcp__remote__get_weather',
      'mcp__remote__explode',
      'mcp__remote__throws',
      'mcp__remote__die',
    ]);
    expect(registration.remoteNames.get('mcp__remote__get_weather')).toBe('Get-Weather');
    const weather = registry.get('mcp__remote__get_weather')!;
    expect(toolJsonSchema(weather)).toEqual({
      type: 'object',
      $defs: { unit: { type: 'string', enum: ['c', 'f'] } },
      properties: { city: { type: 'string' }, unit: { $ref: '#/$defs/unit' } },
      required: ['city'],
      additionalProperties: false,
    });
    expect(weather.description).toBe('Pretends to look up the weather.');
    expect(registry.get('mcp__remote__echo')!.annotations).toEqual({ readOnlyHint: true });
  });

  it('calls the remote tool and returns its structured or text result', async () => {
    const registry = new ToolRegistry();
    await register(registry);
    const echo = await registry.invoke('mcp__remote__echo', { text: 'hi', shout: true });
    expect(echo.status).toBe('completed');
    expect(echo.output).toEqual({ echoed: 'HI' });
    const weather = await registry.invoke('mcp__remote__get_weather', { city: 'Oslo', unit: 'c' });
    expect(weather.output).toBe('Sunny in Oslo');
  });

  it('validates arguments locally against the remote schema', async () => {
    const registry = new ToolRegistry();
    await register(registry);
    const call = await registry.invoke('mcp__remote__echo', { shout: true });
    expect(call.output).toMatchObject({ success: false, error_code: 'invalid_request' });
    expect(call.error?.message).toContain('text');
  });

  it('turns remote errors into typed remote_error failures', async () => {
    const registry = new ToolRegistry();
    await register(registry);
    const exploded = await registry.invoke('mcp__remote__explode', {});
    expect(exploded.status).toBe('completed');
    expect(exploded.output).toMatchObject({ success: false, error_code: 'remote_error' });
    expect((exploded.output as { error: string }).error).toContain('disk on fire');
    const thrown = await registry.invoke('mcp__remote__throws', {});
    expect(thrown.output).toMatchObject({ success: false, error_code: 'remote_error' });
    expect((thrown.output as { error: string }).error).toContain('the fixture refuses');
  });

  it('reports a dead server as remote_unavailable, also on later calls', async () => {
    const registry = new ToolRegistry();
    await register(registry);
    const died = await registry.invoke('mcp__remote__die', {});
    expect(died.output).toMatchObject({ success: false, error_code: 'remote_unavailable' });
    const after = await registry.invoke('mcp__remote__echo', { text: 'still there?' });
    expect(after.output).toMatchObject({ success: false, error_code: 'remote_unavailable' });
  });

  it('registers only the requested subset', async () => {
    const registry = new ToolRegistry();
    await register(registry, { tools: ['Get-Weather', 'echo'] });
    expect(registry.names()).toEqual(['mcp__remote__get_weather', 'mcp__remote__echo']);
  });

  it('registers nothing and names the missing tools when a requested tool does not exist', async () => {
    const registry = new ToolRegistry();
    const attempt = registerMcpServer(registry, { server: 'remote', client: stdio }, { tools: ['echo', 'teleport'] });
    await expect(attempt).rejects.toThrow(ConfigurationError);
    await expect(attempt).rejects.toThrow(/"teleport".*Nothing was registered/);
    expect(registry.size).toBe(0);
  });

  it('registers nothing when a name collides with a local tool, even with update', async () => {
    const registry = new ToolRegistry();
    registry.register(
      defineTool({
        name: 'mcp__remote__echo',
        description: 'A local tool that happens to use the name.',
        request: z.object({}),
        handler: async () => 'local',
      }),
    );
    await expect(register(registry, { update: true })).rejects.toThrow(/mcp__remote__echo is already registered/);
    expect(registry.names()).toEqual(['mcp__remote__echo']);
    expect((await registry.invoke('mcp__remote__echo', {})).output).toBe('local');
  });

  it('lets update replace tools from an earlier MCP registration', async () => {
    const registry = new ToolRegistry();
    await register(registry, { tools: ['echo'] });
    const before = registry.get('mcp__remote__echo');
    await expect(register(registry, { tools: ['echo'] })).rejects.toThrow(/already registered/);
    await register(registry, { tools: ['echo'], update: true });
    expect(registry.names()).toEqual(['mcp__remote__echo']);
    expect(registry.get('mcp__remote__echo')).not.toBe(before);
    expect((await registry.invoke('mcp__remote__echo', { text: 'again' })).output).toEqual({ echoed: 'again' });
  });

  it('removes its tools on close', async () => {
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, { server: 'remote', client: stdio }, { tools: ['echo'] });
    expect(registry.size).toBe(1);
    await registration.close();
    expect(registry.size).toBe(0);
  });
});

describe('registerMcpServer against createMcpServer', () => {
  it('round-trips a bough tool through MCP and back', async () => {
    const served = new ToolRegistry();
    served.register(
      defineTool({
        name: 'add',
        description: 'Adds two numbers.',
        request: z.object({ a: z.number(), b: z.number() }).strict(),
        handler: async ({ a, b }) => ({ success: true, sum: a + b }),
      }),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(served, { name: 'local', version: '1.0.0' }).connect(serverSide);
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, { server: 'Local Math', client: clientSide });
    open.push(registration);
    expect(registry.names()).toEqual(['mcp__local_math__add']);
    expect((await registry.invoke('mcp__local_math__add', { a: 2, b: 3 })).output).toEqual({ success: true, sum: 5 });
  });

  it('uses a connected SDK Client as given (an McpClient by type) and leaves it open on close', async () => {
    const served = new ToolRegistry();
    served.register(
      defineTool({
        name: 'add',
        description: 'Adds two numbers.',
        request: z.object({ a: z.number(), b: z.number() }).strict(),
        handler: async ({ a, b }) => ({ success: true, sum: a + b }),
      }),
    );
    const [clientSide, serverSide] = ClientMemoryTransport.createLinkedPair();
    await createMcpServer(served, { name: 'local', version: '1.0.0' }).connect(serverSide);
    // Compiles only while the SDK's Client satisfies the structural McpClient this package declares.
    const client: McpClient = new Client({ name: 'mine', version: '1.0.0' });
    await (client as Client).connect(clientSide);
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, { server: 'mine', client });
    expect(registration.client).toBe(client);
    expect((await registry.invoke('mcp__mine__add', { a: 1, b: 2 })).output).toEqual({ success: true, sum: 3 });
    await registration.close();
    expect(client.transport).toBeDefined();
    await client.close();
  });
});
