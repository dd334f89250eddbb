import { ConfigurationError, ToolRegistry } from '@bough/core';
import { describe, expect, it, vi } from 'vitest';
import { createMcpServer } from './server.js';

// The optional peer is absent: importing it fails the way Node fails for a package that is not installed.
vi.mock('@modelcontextprotocol/client', () => {
  throw Object.assign(new Error("Cannot find package '@modelcontextprotocol/client'"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
});

const { registerMcpServer } = await import('./register.js');

describe('without @modelcontextprotocol/client installed', () => {
  it('registering a remote server fails with a typed error that names the install command', async () => {
    const registry = new ToolRegistry();
    const attempt = registerMcpServer(registry, { server: 'remote', client: { command: process.execPath } });
    await expect(attempt).rejects.toBeInstanceOf(ConfigurationError);
    await expect(attempt).rejects.toMatchObject({
      code: 'mcp_client_missing',
      message: expect.stringContaining('npm install @modelcontextprotocol/client@^2.4.0'),
    });
    expect(registry.size).toBe(0);
  });

  it('serving still works: the server side never loads the client', async () => {
    const server = createMcpServer(new ToolRegistry(), { name: 't', version: '1' });
    expect(server).toBeDefined();
    await server.close();
  });
});
