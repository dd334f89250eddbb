import { type AddressInfo, createServer, type Server } from 'node:net';
import { makeWorkspace, type TempWorkspace } from '@branchkit/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handleReader, type ReaderOptions } from './index.js';
import { isPublicAddress } from './remote/ip-policy.js';

const answers =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('address policy', () => {
  it('accepts public unicast and refuses every private, reserved, mapped or compatible form', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '2a00:1450:4001:80b::200e'])
      expect(isPublicAddress(a), a).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::127.0.0.1',
      '::a00:1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '64:ff9b::7f00:1',
      '2001:db8::1',
      '2002:7f00:1::1',
      '2001::1',
      'not-an-ip',
      '',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });
});

describe('remote open refusals make no connection', () => {
  let server: Server;
  let connections = 0;
  let port = 0;
  let ws: TempWorkspace;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    ws = makeWorkspace();
    connections = 0;
  });
  afterEach(() => ws.cleanup());
  const open = (path: string, options: Partial<ReaderOptions>) =>
    handleReader(
      { action: 'open', path },
      {
        workspaceRoot: ws.root,
        allowedHosts: ['docs.example.com'],
        fetchPolicy: { testConnectPort: port },
        ...options,
      },
    );

  it('refuses by URL shape and allow-list', async () => {
    const resolver = answers('93.184.216.34');
    const cases: Array<[string, Partial<ReaderOptions>]> = [
      ['http://docs.example.com/a.html', { resolver }],
      ['ftp://docs.example.com/a.pdf', { resolver }],
      ['https://docs.example.com:8443/a.html', { resolver }],
      ['https://docs.example.com:80/a.html', { resolver }],
      ['https://user:pw@docs.example.com/a.html', { resolver }],
      ['https://user@docs.example.com/a.html', { resolver }],
      ['https://evil.example.com/a.html', { resolver }],
      ['https://docs.example.com.evil.com/a.html', { resolver }],
      ['https://docs.example.com/a.html', { resolver, allowedHosts: [] }],
      ['https://docs.example.com/a.html', { resolver, allowedHosts: undefined }],
    ];
    for (const [url, options] of cases) {
      const out = await open(url, options);
      expect(out, url).toMatchObject({ success: false, error_code: 'url_not_allowed' });
    }
    expect(await open('https://', { resolver })).toMatchObject({ error_code: 'invalid_url' });
    expect(connections).toBe(0);
  });

  it('refuses hosts that resolve to any non-public address, without echoing the address', async () => {
    for (const bad of [
      ['127.0.0.1'],
      ['10.0.0.7'],
      ['169.254.169.254'],
      ['::1'],
      ['::ffff:127.0.0.1'],
      ['::ffff:7f00:1'],
      ['::127.0.0.1'],
      ['fd00::1'],
      ['0.0.0.0'],
      ['93.184.216.34', '10.0.0.1'],
      ['2606:4700::1111', '::ffff:192.168.0.1'],
      [],
    ]) {
      const out = await open('https://docs.example.com/a.html', { resolver: answers(...bad) });
      expect(out, bad.join()).toMatchObject({ success: false, error_code: 'address_not_public' });
      for (const a of bad) expect(JSON.stringify(out)).not.toContain(a);
    }
    const failing = await open('https://docs.example.com/a.html', {
      resolver: async () => Promise.reject(new Error('ENOTFOUND')),
    });
    expect(failing).toMatchObject({ error_code: 'dns_failed' });
    expect(connections).toBe(0);
  });

  it('refuses IP-literal hosts that are private even when allow-listed', async () => {
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:7f00:1]', '2130706433', '0x7f.0.0.1']) {
      const url = `https://${host}/x.html`;
      const allowed = new URL(url).hostname;
      const out = await open(url, { allowedHosts: [allowed], resolver: answers('93.184.216.34') });
      expect(out, url).toMatchObject({ success: false });
    }
    expect(connections).toBe(0);
  });

  it('normalises a trailing dot and case when matching the allow-list', async () => {
    const out = await open('https://DOCS.Example.com./a.html', {
      allowedHosts: ['docs.example.com.'],
      resolver: answers('10.0.0.1'),
    });
    expect(out).toMatchObject({ error_code: 'address_not_public' }); // passed the allow-list, stopped at the address check
    expect(connections).toBe(0);
  });
});
