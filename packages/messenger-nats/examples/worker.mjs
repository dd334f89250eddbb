// One worker of examples/lead.mjs: joins the team's exchange, does each task it receives and reports back.
import { Branch } from '@bough/core';
import { messengerProvider } from '@bough/messenger';
import { openNatsExchange } from '@bough/messenger-nats';

const [url, team, name, rosterJson] = process.argv.slice(2);
const roster = JSON.parse(rosterJson);
const opened = await openNatsExchange({ name: team, servers: url });
if (!opened.success) throw new Error(`${opened.error_code}: ${opened.error}`);
const { exchange } = opened;
const me = new Branch({ id: roster[name], name });
await exchange.register(me.id);
me.registerTools(messengerProvider({ exchange, roster }));
const messenger = async (args) => (await me.act({ name: 'messenger', arguments: args })).output;

let stopped = false;
while (!stopped) {
  await exchange.waitForMail(me.id, { timeoutMs: 1_000 });
  const got = await messenger({ action: 'receive' });
  for (const message of got.messages ?? []) {
    if (message.content === 'stop') stopped = true;
    else await messenger({ action: 'send', to: 'lead', content: `done with "${message.content}"` });
  }
}
await exchange.close();
process.exit(0);
