// A lead and two workers in three processes, talking through the `messenger` tool over NATS JetStream.
//   nats-server -js &            (or any JetStream server)
//   node examples/lead.mjs [nats://127.0.0.1:4222]
// The lead starts worker.mjs twice, hands each a task, waits for both reports and tells everyone to stop.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Branch } from '@bough/core';
import { messengerProvider } from '@bough/messenger';
import { openNatsExchange } from '@bough/messenger-nats';

const url = process.argv[2] ?? 'nats://127.0.0.1:4222';
const team = `example-${process.pid}`; // one exchange name per team
const roster = { lead: randomUUID(), w1: randomUUID(), w2: randomUUID() };

const opened = await openNatsExchange({ name: team, servers: url });
if (!opened.success) throw new Error(`${opened.error_code}: ${opened.error}`);
const { exchange } = opened;
const lead = new Branch({ id: roster.lead, name: 'lead' });
await exchange.register(lead.id);
lead.registerTools(messengerProvider({ exchange, roster }));
const messenger = async (args) => (await lead.act({ name: 'messenger', arguments: args })).output;

const workers = ['w1', 'w2'].map((name) =>
  spawn(
    process.execPath,
    [new URL('./worker.mjs', import.meta.url).pathname, url, team, name, JSON.stringify(roster)],
    {
      stdio: 'inherit',
    },
  ),
);
const tasks = { w1: 'count the TODOs in src/', w2: 'list the failing tests' };
for (const [name, task] of Object.entries(tasks)) {
  // A worker registers when its process is up; until then the send reports recipient_offline, so retry.
  for (;;) {
    const sent = await messenger({ action: 'send', to: name, content: task });
    if (sent.success) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const reports = [];
while (reports.length < 2) {
  await exchange.waitForMail(lead.id, { timeoutMs: 1_000 });
  const got = await messenger({ action: 'receive' });
  for (const message of got.messages ?? []) reports.push(`${message.from}: ${message.content}`);
}
for (const report of reports.sort()) console.log(report);
await messenger({ action: 'send', to: '*', content: 'stop' });
await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))));
await exchange.close();
console.log('team done');
