// A team member in its own process, for the multi-process tests: it opens the exchange on NATS, registers its
// roster id and answers one JSON request per stdin line with one JSON line on stdout (the messenger tool's replies).
// Runs the built packages (dist), as a deployed member would.
import { createInterface } from 'node:readline';
import { handleMessenger } from '@bough/messenger';
import { openNatsExchange } from '@bough/messenger-nats';

const [url, name, selfName, rosterJson, leaseMs, mode] = process.argv.slice(2);
const roster = JSON.parse(rosterJson);
const selfId = roster[selfName];
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

const opened = await openNatsExchange({
  name,
  servers: url,
  limits: { leaseMs: Number(leaseMs), ackWaitMs: Number(leaseMs) },
});
if (!opened.success) {
  say({ ready: false, error: opened.error });
  process.exit(1);
}
const { exchange } = opened;
// A killed predecessor's claim runs out after leaseMs; keep trying until then (unless told to try once).
const deadline = Date.now() + 20_000;
for (;;) {
  try {
    await exchange.register(selfId);
    break;
  } catch (error) {
    if (mode === 'once' || Date.now() > deadline) {
      say({ ready: false, error: String(error) });
      await exchange.close();
      process.exit(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
say({ ready: true });

const deps = { exchange, roster, selfId, selfName };
for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  if (request.op === 'exit') break;
  if (request.op === 'owners') say({ owners: await exchange.ownerIds() });
  else if (request.op === 'wait') say({ mail: await exchange.waitForMail(selfId, { timeoutMs: request.timeoutMs }) });
  else say(await handleMessenger(request.call, deps));
}
await exchange.close();
// The parent keeps this process's stdin open; leave without waiting for it.
process.exit(0);
