import { type AddressInfo, createServer, type Server } from 'node:net';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleReader, type ReaderOptions } from './index.js';
import { isPublicAddress } from './remote/ip-policy.js';

// Remote documents are fetched from port 443 only; this file points that one port at its loopback listener by mocking
// the module that names it (no reader option can change the port).
const listener = vi.hoisted(() => ({ port: 443 }));
vi.mock('./remote/https-port.js', () => ({ httpsConnectPort: () => listener.port }));

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
    listener.port = port;
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
        ...options,
      },
    );

  it('refuses by URL shape and allow-list', async () => {
    const resolver = answers('93.184.216.34');
    const cases: Array<[string, Partial<ReaderOptions>]> = [
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
    for (const url of ['http://docs.example.com/a.html', 'ftp://docs.example.com/a.pdf']) {
      expect(await open(url, { resolver }), url).toMatchObject({ success: false, error_code: 'unsupported_scheme' });
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

  it('is not fooled by userinfo, fragments, queries, backslashes or look-alike suffixes', async () => {
    const before = snapshotTree(ws.outside);
    const lookups: string[] = [];
    const resolver = async (host: string) => {
      lookups.push(host);
      return [{ address: '93.184.216.34', family: 4 }];
    };
    for (const url of [
      'https://docs.example.com@evil.com/a.html',
      'https://docs.example.com:443@evil.com/a.html',
      'https://evil.com#@docs.example.com/a.html',
      'https://evil.com?@docs.example.com/a.html',
      'https://evil.com\\@docs.example.com/a.html',
      'https://docs.example.com%2eevil.com/a.html',
      'https://docs.example.com../a.html',
      'https://xdocs.example.com/a.html',
      'https://docs.example.co/a.html',
      'HTTPS://evil.com/docs.example.com',
      'https:docs.example.com@evil.com',
      '//docs.example.com/a.html',
      'javascript:alert(1)//docs.example.com',
      'file:///etc/passwd',
      'data:text/html,<p>x</p>',
      'https://docs.example.com:65536/a.html',
      'wss://docs.example.com/a.html',
    ]) {
      const out = await open(url, { resolver });
      expect(out.success, url).toBe(false);
      expect((out as { error_code: string }).error_code, url).toMatch(
        /^(url_not_allowed|invalid_url|unsupported_scheme|unsupported_document|outside_workspace|not_found)$/,
      );
    }
    expect(lookups).toEqual([]);
    expect(connections).toBe(0);
    expect(snapshotTree(ws.outside)).toBe(before);
  });

  it('matches IDNA and full-width host spellings against the allow-list by their ASCII form', async () => {
    const lookups: string[] = [];
    const resolver = async (host: string) => {
      lookups.push(host);
      return [{ address: '10.0.0.1', family: 4 }]; // stop at the address check: no connection either way
    };
    const cases: Array<[string, string[]]> = [
      ['https://bücher.example/a.html', ['bücher.example']],
      ['https://xn--bcher-kva.example/a.html', ['bücher.example']],
      ['https://bücher.example/a.html', ['XN--BCHER-KVA.example.']],
      ['https://ｄｏｃｓ.example.com/a.html', ['docs.example.com']],
    ];
    for (const [url, allowedHosts] of cases) {
      expect(await open(url, { allowedHosts, resolver }), url).toMatchObject({ error_code: 'address_not_public' });
    }
    expect(lookups).toEqual([
      'xn--bcher-kva.example',
      'xn--bcher-kva.example',
      'xn--bcher-kva.example',
      'docs.example.com',
    ]);
    // a look-alike in another script is a different host
    expect(await open('https://dоcs.example.com/a.html', { resolver })).toMatchObject({
      error_code: 'url_not_allowed',
    });
    expect(connections).toBe(0);
  });

  it('refuses decimal, octal, hex and short IPv4 hosts and IPv6 literals that are not public', async () => {
    for (const host of [
      '2130706433',
      '017700000001',
      '0x7f000001',
      '127.1',
      '0',
      '0x0a.0.0.1',
      '[::]',
      '[0:0:0:0:0:ffff:7f00:1]',
      '[::ffff:169.254.169.254]',
      '[fe80::1]',
      '[64:ff9b::a9fe:a9fe]',
    ]) {
      const url = `https://${host}/x.html`;
      const allowed = new URL(url).hostname;
      const out = await open(url, { allowedHosts: [allowed], resolver: answers('93.184.216.34') });
      expect(out, url).toMatchObject({ success: false, error_code: 'address_not_public' });
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
