import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from '@bough/context';
const profile = process.argv[2] ?? 'full';
const client = new Client({ name: 'x', version: '0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: ['packages/cli/dist/bin.js','mcp','/tmp/lean/ws','--profile',profile,'--sandbox','off', ...process.argv.slice(3)], stderr: 'inherit' }));
const { tools } = await client.listTools();
for (const t of tools) {
  const shown = { name: t.name, description: t.description, inputSchema: t.inputSchema };
  console.log(`== ${t.name}: desc ${countTokens(t.description??'')} input ${countTokens(JSON.stringify(t.inputSchema))} output ${countTokens(JSON.stringify(t.outputSchema??{}))} total-shown ${countTokens(JSON.stringify(shown))}`);
  if (process.env.V) console.log(JSON.stringify(shown, null, 1));
}
await client.close();
