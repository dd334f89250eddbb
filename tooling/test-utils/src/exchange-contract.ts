import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** A message as the contract suite reads it (structurally the messenger's `ExchangeMessage`). */
export interface ContractMessage {
  readonly id: string;
  readonly sender: string;
  readonly recipient: string | null;
  readonly content: string;
  readonly channel: string;
}

/** The part of the messenger's `Exchange` the contract suite drives (kept structural: no package dependency). */
export interface ContractExchange {
  readonly dropped: number;
  readonly transport: { writeInbox(delivery: { id: string; to: string; message: ContractMessage }): Promise<void> };
  register(owner: string): Promise<void>;
  unregister(owner: string): Promise<boolean>;
  has(owner: string): Promise<boolean>;
  holds(owner: string): Promise<boolean>;
  ownerIds(): Promise<string[]>;
  send(
    sender: string,
    recipient: string | null,
    content: string,
    options?: { channel?: string },
  ): Promise<ContractMessage>;
  receive(owner: string, sender?: string): Promise<ContractMessage[]>;
  pop(owner: string, sender?: string): Promise<ContractMessage | undefined>;
  popMany(owner: string, options?: { sender?: string; limit?: number }): Promise<ContractMessage[]>;
  waitForMail(owner: string, options?: { timeoutMs?: number }): Promise<boolean>;
}

/** Members sharing one exchange: separate connections ("processes") for a broker, one object in memory. */
export interface ContractTeam {
  /** The exchange as member `index` sees it. */
  member(index: number): ContractExchange;
  /** True when members are separate holders (a broker), so one member cannot hold another's owner. */
  readonly separate: boolean;
  close(): Promise<void>;
}

/** Polls `check` until it returns true (every 10 ms, up to 15 s), for state that other connections see eventually. */
export async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Takes messages from an owner's inbox until `count` arrived (waiting for mail in between), then checks no more came. */
export async function takeAll(exchange: ContractExchange, owner: string, count: number): Promise<ContractMessage[]> {
  const taken: ContractMessage[] = [];
  const deadline = Date.now() + 15_000;
  while (taken.length < count) {
    if (Date.now() > deadline) throw new Error(`${owner} got ${taken.length} of ${count} messages.`);
    await exchange.waitForMail(owner, { timeoutMs: 500 });
    taken.push(...(await exchange.popMany(owner)));
  }
  return taken;
}

/**
 * The behaviour every exchange transport must show, run against an `Exchange` over that transport (like a storage
 * driver test suite). `open` builds a fresh team for each test.
 */
export function describeExchangeContract(label: string, open: () => Promise<ContractTeam>): void {
  describe(`exchange contract: ${label}`, () => {
    let team: ContractTeam;
    let a: ContractExchange;
    let b: ContractExchange;
    let c: ContractExchange;
    beforeEach(async () => {
      team = await open();
      [a, b, c] = [team.member(0), team.member(1), team.member(2)];
      await a.register('a');
      await b.register('b');
      await c.register('c');
      await until(async () => (await c.ownerIds()).length === 3 && (await a.ownerIds()).length === 3, 'the roster');
    });
    afterEach(async () => {
      await team.close();
    });

    it('shares the roster and lets one holder register a name', async () => {
      for (const member of [a, b, c]) expect((await member.ownerIds()).sort()).toEqual(['a', 'b', 'c']);
      await expect(a.register('a')).rejects.toThrow(/already registered/);
      await expect(b.register('a')).rejects.toThrow(/already registered/);
      expect(await b.has('a')).toBe(true);
      expect(await a.holds('a')).toBe(true);
      if (team.separate) expect(await b.holds('a')).toBe(false);
      if (team.separate) expect(await b.unregister('a')).toBe(false);
      expect(await a.unregister('a')).toBe(true);
      expect(await a.unregister('a')).toBe(false);
      await until(async () => !(await b.has('a')), 'the unregistration');
      await b.register('a');
      expect(await b.holds('a')).toBe(true);
    });

    it('delivers direct mail to the recipient only, with its fields', async () => {
      const sent = await a.send('a', 'b', 'hello', { channel: 'ops' });
      expect(sent).toMatchObject({ sender: 'a', recipient: 'b', content: 'hello', channel: 'ops' });
      const [got] = await takeAll(b, 'b', 1);
      expect(got).toMatchObject({ id: sent.id, sender: 'a', recipient: 'b', content: 'hello', channel: 'ops' });
      await a.send('a', 'c', 'marker');
      expect((await takeAll(c, 'c', 1)).map((m) => m.content)).toEqual(['marker']);
      expect(await a.receive('a')).toEqual([]);
    });

    it('broadcasts one copy to every other owner, none to the sender', async () => {
      const sent = await a.send('a', null, 'all hands');
      expect((await takeAll(b, 'b', 1)).map((m) => m.id)).toEqual([sent.id]);
      expect((await takeAll(c, 'c', 1)).map((m) => m.id)).toEqual([sent.id]);
      await b.send('b', 'a', 'marker');
      expect((await takeAll(a, 'a', 1)).map((m) => m.content)).toEqual(['marker']);
      await b.send('b', 'c', 'after');
      expect((await takeAll(c, 'c', 1)).map((m) => m.content)).toEqual(['after']);
    });

    it('keeps per-sender order when senders interleave, direct and broadcast', async () => {
      for (let i = 0; i < 20; i += 1) {
        await a.send('a', i % 5 === 0 ? null : 'c', `a${i}`);
        await b.send('b', 'c', `b${i}`);
      }
      const got = (await takeAll(c, 'c', 40)).map((m) => m.content);
      expect(got.filter((text) => text.startsWith('a'))).toEqual(Array.from({ length: 20 }, (_, i) => `a${i}`));
      expect(got.filter((text) => text.startsWith('b'))).toEqual(Array.from({ length: 20 }, (_, i) => `b${i}`));
      expect((await takeAll(b, 'b', 4)).map((m) => m.content)).toEqual(['a0', 'a5', 'a10', 'a15']);
    });

    it('pops oldest first, optionally from one sender; peeking does not remove; a taken message never returns', async () => {
      await a.send('a', 'c', 'a1');
      await b.send('b', 'c', 'b1');
      await a.send('a', 'c', 'a2');
      await until(async () => (await c.receive('c')).length === 3, 'three messages');
      expect((await c.receive('c', 'a')).map((m) => m.content)).toEqual(['a1', 'a2']);
      expect((await c.pop('c', 'a'))?.content).toBe('a1');
      expect((await c.popMany('c', { limit: 1 })).map((m) => m.content)).toEqual(['b1']);
      expect((await c.pop('c'))?.content).toBe('a2');
      expect(await c.pop('c')).toBeUndefined();
      expect(await c.waitForMail('c', { timeoutMs: 50 })).toBe(false);
    });

    it('stores a retried delivery once', async () => {
      const sent = await a.send('a', 'b', 'once');
      await a.transport.writeInbox({ id: `${sent.id}:b`, to: 'b', message: sent });
      expect((await takeAll(b, 'b', 1)).map((m) => m.content)).toEqual(['once']);
      await a.send('a', 'b', 'marker');
      expect((await takeAll(b, 'b', 1)).map((m) => m.content)).toEqual(['marker']);
    });

    it('drops and counts direct mail to an unregistered owner; refuses senders not held here', async () => {
      await a.send('a', 'nobody', 'lost');
      expect(a.dropped).toBe(1);
      await expect(a.send('ghost', 'b', 'x')).rejects.toThrow(/not registered/);
      if (team.separate) await expect(b.send('a', 'c', 'forged')).rejects.toThrow(/not registered/);
    });

    it('deletes the mail of an owner that unregisters', async () => {
      await a.send('a', 'b', 'old');
      await until(async () => (await b.receive('b')).length === 1, 'the message');
      expect(await b.unregister('b')).toBe(true);
      await b.register('b');
      await a.send('a', 'b', 'new');
      expect((await takeAll(b, 'b', 1)).map((m) => m.content)).toEqual(['new']);
    });
  });
}
