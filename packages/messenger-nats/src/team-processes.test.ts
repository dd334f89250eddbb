import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { startNatsServer, type TestNatsServer, until } from '@bough/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Members are real processes running the built packages; the server is a real nats-server with a file store.
const DRIVER = join(import.meta.dirname, '..', 'test-fixtures', 'member.mjs');
const BUILT = join(import.meta.dirname, '..', 'dist', 'index.js');
const LEASE_MS = 1_000;
const ROSTER = {
  lead: '00000000-0000-4000-8000-00000000000a',
  w1: '00000000-0000-4000-8000-00000000000b',
  w2: '00000000-0000-4000-8000-00000000000c',
};

type Reply = Record<string, unknown> & { success?: boolean; messages?: { from: string; content: string }[] };

class Member {
  readonly child: ChildProcessWithoutNullStreams;
  readonly #lines: Interface;
  readonly #queue: string[] = [];
  readonly #waiting: ((line: string) => void)[] = [];

  constructor(
    server: TestNatsServer,
    readonly name: string,
    mode = 'retry',
  ) {
    const args = [DRIVER, server.url, 'team', name, JSON.stringify(ROSTER), String(LEASE_MS), mode];
    this.child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#lines = createInterface({ input: this.child.stdout });
    this.#lines.on('line', (line) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(line);
      else this.#queue.push(line);
    });
  }

  async next(): Promise<Reply> {
    const queued = this.#queue.shift();
    const line = queued ?? (await new Promise<string>((resolve) => this.#waiting.push(resolve)));
    return JSON.parse(line) as Reply;
  }

  async ask(request: unknown): Promise<Reply> {
    if (process.env.TEAM_DEBUG)
      process.stderr.write(`${Date.now() % 100000} ${this.name} ${JSON.stringify(request)}\n`);
    this.child.stdin.write(`${JSON.stringify(request)}\n`);
    return this.next();
  }

  call(call: unknown): Promise<Reply> {
    return this.ask({ op: 'call', call });
  }

  send(to: string | string[], content: string): Promise<Reply> {
    return this.call({ action: 'send', to, content });
  }

  /** Receives until `count` messages came (waiting for mail in between), returning "from:content" strings. */
  async receive(count: number): Promise<string[]> {
    const got: string[] = [];
    const deadline = Date.now() + 15_000;
    while (got.length < count && Date.now() < deadline) {
      await this.ask({ op: 'wait', timeoutMs: 500 });
      const reply = await this.call({ action: 'receive' });
      got.push(...(reply.messages ?? []).map((m) => `${m.from}:${m.content}`));
    }
    return got;
  }

  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }

  async exit(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.write(`${JSON.stringify({ op: 'exit' })}\n`);
    await exited;
  }
}

describe('a team in separate processes over nats-server', () => {
  let server: TestNatsServer;
  const members: Member[] = [];
  const start = async (name: string, mode?: string): Promise<Member> => {
    const member = new Member(server, name, mode);
    members.push(member);
    return member;
  };

  beforeAll(async () => {
    if (!existsSync(BUILT)) throw new Error('The member processes run dist: build @bough/messenger-nats first.');
    server = await startNatsServer();
  });
  afterAll(async () => {
    for (const member of members) await member.kill();
    await server?.close();
  });

  it('keeps mail across a killed member, a second claimant and a broker restart: nothing lost, nothing twice', async () => {
    const lead = await start('lead');
    let w1 = await start('w1');
    let w2 = await start('w2');
    for (const member of [lead, w1, w2]) expect(await member.next()).toEqual({ ready: true });

    // The roster is shared: the lead sees the workers the other processes registered.
    await until(async () => ((await lead.ask({ op: 'owners' })).owners as string[]).length === 3, 'the roster');
    // A name is held by one live process: a second w1 is refused while the first is alive.
    const rival = await start('w1', 'once');
    expect(await rival.next()).toMatchObject({ ready: false });

    for (let i = 1; i <= 3; i += 1) expect(await lead.send('w1', `t${i}`)).toMatchObject({ success: true });
    expect(await lead.send('*', 'all-1')).toMatchObject({ success: true });
    expect(await w1.receive(4)).toEqual(['lead:t1', 'lead:t2', 'lead:t3', 'lead:all-1']);

    // w2 dies before reading anything; mail sent while it is down waits for it.
    await w2.kill();
    for (let i = 4; i <= 6; i += 1) expect(await lead.send('w2', `t${i}`)).toMatchObject({ success: true });
    expect(await w1.send('*', 'from-w1')).toMatchObject({ success: true });
    // w1 dies after taking its mail; what it took must not come back.
    expect(await lead.receive(1)).toEqual(['w1:from-w1']);
    await w1.kill();
    expect(await lead.send('w1', 't7')).toMatchObject({ success: true });

    // Both come back at once; each claims its name again as soon as the dead holder's lease runs out.
    w2 = await start('w2');
    w1 = await start('w1');
    expect(await w2.next()).toEqual({ ready: true });
    expect(await w1.next()).toEqual({ ready: true });
    expect(await w2.receive(5)).toEqual(['lead:all-1', 'lead:t4', 'lead:t5', 'lead:t6', 'w1:from-w1']);
    expect(await w1.receive(1)).toEqual(['lead:t7']);

    // The broker restarts with its file store: sends fail typed while it is down, then go through.
    await server.stop();
    const down = await lead.send('w1', 'during-outage');
    expect(down).toMatchObject({ success: false, error_code: 'transport_unavailable' });
    await server.start();
    await until(async () => (await lead.send('w1', 't8')).success === true, 'the reconnect');
    expect(await lead.send('w2', 't9')).toMatchObject({ success: true });
    expect(await w1.receive(1)).toEqual(['lead:t8']);
    expect(await w2.receive(1)).toEqual(['lead:t9']);

    // Nothing more arrives anywhere: no redelivered duplicates.
    for (const member of [lead, w1, w2]) {
      expect(await member.ask({ op: 'wait', timeoutMs: 300 })).toEqual({ mail: false });
      expect(await member.call({ action: 'receive' })).toMatchObject({ messages: [], remaining: 0 });
    }
    for (const member of [lead, w1, w2]) await member.exit();
  }, 60_000);
});
