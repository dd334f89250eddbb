import { describeExchangeContract, startNatsServer, type TestNatsServer } from '@bough/test-utils';
import { afterAll, beforeAll, expect } from 'vitest';
import { type NatsExchange, openNatsExchange } from './index.js';

let server: TestNatsServer;
beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.close();
});

let teams = 0;

// The suite the in-memory transport runs too; here each member is its own connection, as separate processes are.
describeExchangeContract('NATS JetStream', async () => {
  teams += 1;
  const name = `contract-${teams}`;
  const members: NatsExchange[] = [];
  for (let i = 0; i < 3; i += 1) {
    const opened = await openNatsExchange({ name, servers: server.url });
    if (!opened.success) throw new Error(opened.error);
    members.push(opened);
  }
  expect(members).toHaveLength(3);
  return {
    member: (index) => (members[index] as NatsExchange).exchange,
    separate: true,
    close: async () => {
      for (const member of members) await member.exchange.close();
    },
  };
});
