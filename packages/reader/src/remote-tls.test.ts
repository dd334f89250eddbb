import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@branchkit/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DocumentCache, handleReader, type ReaderOptions } from './index.js';
import { makePdf } from './test-docs.js';

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasOpenssl)('remote open over TLS (loopback, test-only policy)', () => {
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
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
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
    fetchPolicy: { testCa: cert, testAllowAddress: (a) => a === '127.0.0.1', testConnectPort: port },
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

  it('refuses a certificate it cannot verify and a body over the size cap', async () => {
    const untrusted = await open('https://docs.example.com/page.html', {
      fetchPolicy: { testAllowAddress: (a) => a === '127.0.0.1', testConnectPort: port },
    });
    expect(untrusted).toMatchObject({ error_code: 'fetch_failed' });
    const big = await open('https://docs.example.com/huge', { limits: { maxDocumentBytes: 10_000 } });
    expect(big).toMatchObject({ error_code: 'too_large' });
  });

  it('without the test address policy the loopback server is never contacted', async () => {
    connections = 0;
    const out = await open('https://docs.example.com/page.html', {
      fetchPolicy: { testCa: cert, testConnectPort: port },
    });
    expect(out).toMatchObject({ error_code: 'address_not_public' });
    expect(connections).toBe(0);
  });
});
