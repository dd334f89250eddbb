import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePdf, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DocumentCache, handleReader, type ReaderOptions } from './index.js';

// Remote documents are fetched from port 443 only; this file points that one port at its loopback listener by mocking
// the module that names it (no reader option can change the port).
const listener = vi.hoisted(() => ({ port: 443 }));
vi.mock('./remote/https-port.js', () => ({ httpsConnectPort: () => listener.port }));

// The shipped options hold no way to make an address count as public. To reach a loopback TLS server, this file (and
// only this file) swaps the address classifier so that 127.0.0.1 counts as public; every other address keeps the
// real answer. remote-refusals.test.ts proves, with the real classifier, that loopback servers are never contacted.
vi.mock('./remote/ip-policy.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./remote/ip-policy.js')>();
  return { ...real, isPublicAddress: (address: string) => address === '127.0.0.1' || real.isPublicAddress(address) };
});

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasOpenssl)('remote open over TLS (loopback server, loopback counted as public in this file)', () => {
  let server: HttpsServer;
  let port = 0;
  let connections = 0;
  let cert = '';
  let ws: TempWorkspace;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bk-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-subj',
        '/CN=docs.example.com',
        '-addext',
        'subjectAltName=DNS:docs.example.com',
      ],
      { stdio: 'ignore' },
    );
    cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const key = readFileSync(join(dir, 'key.pem'), 'utf8');
    rmSync(dir, { recursive: true, force: true });
    server = createHttpsServer({ key, cert }, (req, res) => {
      if (req.url === '/paper.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end(makePdf(['Remote pdf page']));
      } else if (req.url === '/page.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<h1>Remote</h1><p>fetched body</p>');
      } else if (req.url === '/hop') {
        res.writeHead(302, { location: '/page.html' });
        res.end();
      } else if (req.url === '/to-internal') {
        res.writeHead(301, { location: 'https://internal.example.com/page.html' });
        res.end();
      } else if (req.url === '/to-unlisted') {
        res.writeHead(307, { location: 'https://elsewhere.example.org/page.html' });
        res.end();
      } else if (req.url === '/loop') {
        res.writeHead(302, { location: '/loop' });
        res.end();
      } else if (req.url === '/to-http') {
        res.writeHead(302, { location: 'http://docs.example.com/page.html' });
        res.end();
      } else if (req.url === '/to-userinfo') {
        res.writeHead(302, { location: 'https://docs.example.com@evil.example.org/page.html' });
        res.end();
      } else if (req.url === '/to-port') {
        res.writeHead(302, { location: 'https://docs.example.com:8443/page.html' });
        res.end();
      } else if (req.url === '/to-literal') {
        res.writeHead(302, { location: 'https://127.0.0.1/page.html' });
        res.end();
      } else if (req.url === '/stall-body') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<p>partial');
      } else if (req.url === '/stall-head') {
        // never answers
      } else if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<p>${'x'.repeat(200_000)}</p>`);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    listener.port = port;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  beforeEach(() => {
    ws = makeWorkspace();
    connections = 0;
  });
  afterEach(() => ws.cleanup());
  const resolver = async (host: string) =>
    host === 'internal.example.com' ? [{ address: '10.0.0.9', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
  const options = (extra: Partial<ReaderOptions> = {}): ReaderOptions => ({
    workspaceRoot: ws.root,
    allowedHosts: ['docs.example.com', 'internal.example.com'],
    resolver,
    fetchPolicy: { ca: cert },
    ...extra,
  });
  const open = (path: string, extra?: Partial<ReaderOptions>) => handleReader({ action: 'open', path }, options(extra));

  it('fetches, verifies the certificate against the host name, converts and caches', async () => {
    const cache = new DocumentCache({ ttlMs: 60_000 });
    const out = await open('https://docs.example.com/page.html', { cache });
    expect(out).toMatchObject({ success: true, source: 'html', cached: false });
    expect((out as { content: string }).content).toMatch(/fetched body/);
    expect(await open('https://docs.example.com/page.html', { cache })).toMatchObject({ cached: true });
    expect(connections).toBe(1);
    await open('https://docs.example.com/paper.pdf', { cache });
    const pdf = await open('https://docs.example.com/paper.pdf', { cache });
    expect(pdf).toMatchObject({ success: true, source: 'pdf', cached: true });
    expect((pdf as { content: string }).content).toMatch(/Remote pdf page/);
  });

  it('follows a same-host redirect and re-checks every hop', async () => {
    expect(await open('https://docs.example.com/hop')).toMatchObject({ success: true });
    connections = 0;
    expect(await open('https://docs.example.com/to-internal')).toMatchObject({ error_code: 'address_not_public' });
    expect(await open('https://docs.example.com/to-unlisted')).toMatchObject({ error_code: 'url_not_allowed' });
    expect(connections).toBe(2); // only the first hop of each
    expect(await open('https://docs.example.com/loop')).toMatchObject({ error_code: 'too_many_redirects' });
  });

  it('re-checks every redirect hop: scheme, user info, port and IP-literal hosts are refused before connecting', async () => {
    for (const [path, code] of [
      ['/to-http', 'unsupported_scheme'],
      ['/to-userinfo', 'url_not_allowed'],
      ['/to-port', 'url_not_allowed'],
      ['/to-literal', 'url_not_allowed'],
    ]) {
      connections = 0;
      const out = await open(`https://docs.example.com${path}`);
      expect(out, path).toMatchObject({ success: false, error_code: code });
      expect(connections, path).toBe(1); // the first hop only
    }
  });

  it('pins the connection to the checked answer and resolves again on every hop (DNS rebinding)', async () => {
    const asked: string[] = [];
    let calls = 0;
    // first answer passes the policy; any later answer is private, as a rebinding server would reply
    const rebinding = async (host: string) => {
      asked.push(host);
      return [{ address: calls++ === 0 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    };
    const direct = await open('https://docs.example.com/page.html', { resolver: rebinding });
    expect(direct).toMatchObject({ success: true });
    expect(asked).toEqual(['docs.example.com']); // the HTTP client made no second lookup of its own
    calls = 0;
    asked.length = 0;
    connections = 0;
    const hop = await open('https://docs.example.com/hop', { resolver: rebinding });
    expect(hop).toMatchObject({ success: false, error_code: 'address_not_public' });
    expect(asked).toEqual(['docs.example.com', 'docs.example.com']);
    expect(connections).toBe(1);
  });

  it('gives up on a server that stalls the headers or the body, and keeps working', async () => {
    const limits = { conversionTimeoutMs: 800 };
    expect(await open('https://docs.example.com/stall-head', { limits })).toMatchObject({
      error_code: 'fetch_timeout',
    });
    expect(await open('https://docs.example.com/stall-body', { limits })).toMatchObject({
      error_code: 'fetch_timeout',
    });
    expect(await open('https://docs.example.com/page.html')).toMatchObject({ success: true });
  });

  it('refuses a certificate it cannot verify and a body over the size cap', async () => {
    const untrusted = await open('https://docs.example.com/page.html', { fetchPolicy: {} });
    expect(untrusted).toMatchObject({ error_code: 'fetch_failed' });
    const big = await open('https://docs.example.com/huge', { limits: { maxDocumentBytes: 10_000 } });
    expect(big).toMatchObject({ error_code: 'too_large' });
  });

  it('a host resolving to a private address is never contacted', async () => {
    connections = 0;
    const out = await open('https://internal.example.com/page.html');
    expect(out).toMatchObject({ error_code: 'address_not_public' });
    expect(connections).toBe(0);
  });
});
