import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Branch, ScriptedChatModel, type ToolRegistry, textReply } from '@bough/core';
import { createMcpServer } from '@bough/mcp';
import type { TempWorkspace } from '@bough/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CANARY, DENY_SECRETS, ROUTES, secretsWorkspace, WHOLE } from '../test/policy-routes.js';
import { ALL_CODING_TOOLS, type CodingToolkit, codingToolkit } from './toolkit.js';

// The policy matrix again, through the MCP front door: a real @bough/mcp server serving the workspace as a root,
// each root's registry built from the toolkit with the policy (as `bough mcp` builds it), and the SDK's client.
let ws: TempWorkspace | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  ws?.cleanup();
});

async function serve(root: string): Promise<Client> {
  const toolkits = new Map<ToolRegistry, CodingToolkit>();
  const registryFor = (dir: string) => {
    const model = new ScriptedChatModel(Array.from({ length: 5 }, () => textReply('done')));
    const branch = new Branch({ name: 'mcp', workspaceRoot: dir, model });
    const tools = ALL_CODING_TOOLS.filter((name) => name !== 'context');
    const toolkit = codingToolkit({ tools, permissions: DENY_SECRETS, notify: false, diagnostics: false });
    branch.registerTools(toolkit);
    toolkits.set(branch.registry, toolkit);
    return branch.registry;
  };
  const release = (registry: ToolRegistry) => toolkits.get(registry)?.dispose();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ roots: [root], registryFor, release }, { name: 't', version: '1' }).connect(serverSide);
  const connected = new Client({ name: 'c', version: '1' }, { capabilities: {} });
  await connected.connect(clientSide);
  return connected;
}

const files = (dir: string) => Object.fromEntries(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n), 'utf8')]));

describe('a path rule binds every tool through the MCP front door', () => {
  it('refuses every route into secrets/ and shows nothing under it', async () => {
    ws = secretsWorkspace();
    const before = files(join(ws.root, 'secrets'));
    client = await serve(ws.root);
    for (const [tool, args, code = 'denied'] of ROUTES) {
      const result = await client.callTool({ name: tool, arguments: args(ws) });
      const label = `${tool} ${JSON.stringify(args(ws))}`;
      expect(result.isError, label).toBe(true);
      expect(result.structuredContent, label).toMatchObject({ error_code: code });
      expect(JSON.stringify(result), label).not.toContain(CANARY);
    }
    expect(files(join(ws.root, 'secrets'))).toEqual(before);
    for (const [tool, args] of WHOLE) {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError, tool).toBeFalsy();
      expect(JSON.stringify(result), tool).not.toMatch(/secrets\/|TOP-SECRET/);
    }
  });
});
