import { lookup as dnsLookup } from 'node:dns/promises';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { failure, type ReaderFailure } from '../errors.js';
import { httpsConnectPort } from './https-port.js';
import { isPublicAddress } from './ip-policy.js';
import { checkUrl, normalizeHost } from './url-policy.js';

/** Resolves a host name to every address it has (the default uses `dns.lookup` with `all: true`). */
export type Resolver = (host: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/**
 * Connection settings for remote documents, off by default. None of them can make a private, loopback or reserved
 * address count as public: every resolved address is still checked and the connection pinned to it.
 */
export interface FetchPolicy {
  /**
   * Extra trusted CA certificate(s), PEM, added to Node's bundled roots: for an allow-listed host whose certificate
   * an in-house CA signed. The host name is still verified against the certificate.
   */
  ca?: string | Buffer;
}

/** What a fetch needs besides the URL. */
export interface FetchOptions {
  allowedHosts: readonly string[];
  resolver?: Resolver;
  policy?: FetchPolicy;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  signal?: AbortSignal;
}

/** A downloaded document. */
export interface Fetched {
  ok: true;
  bytes: Buffer;
  contentType: string;
  finalUrl: URL;
}

const defaultResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

async function checkedAddress(
  url: URL,
  options: FetchOptions,
): Promise<{ address: string; family: number } | ReaderFailure> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let answers: ReadonlyArray<{ address: string; family: number }>;
  if (isIP(host)) answers = [{ address: host, family: isIP(host) }];
  else {
    try {
      answers = await (options.resolver ?? defaultResolver)(normalizeHost(host));
    } catch {
      return failure('dns_failed', `The host ${JSON.stringify(normalizeHost(host))} could not be resolved.`);
    }
  }
  if (answers.length === 0 || !answers.every((a) => isPublicAddress(a.address))) {
    return failure(
      'address_not_public',
      'The host resolves to a private, loopback or reserved address (or to none), so it was not contacted.',
    );
  }
  return answers[0]!;
}

function get(url: URL, pinned: { address: string; family: number }, options: FetchOptions): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const lookup: LookupFunction = (_name, opts, callback) => {
    if ((opts as { all?: boolean }).all) (callback as (e: null, a: unknown[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Promise((resolve, reject) => {
    const req = request({
      host,
      port: httpsConnectPort(),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      agent: false,
      lookup,
      ...(isIP(host) ? {} : { servername: normalizeHost(host) }),
      ...(options.policy?.ca ? { ca: [...rootCertificates, options.policy.ca] } : {}),
      headers: { 'accept-encoding': 'identity', 'user-agent': 'bough-reader' },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

function readBody(res: IncomingMessage, maxBytes: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      resolve('too_large');
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    res.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        res.destroy();
        resolve('too_large');
      } else chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}

/** Downloads an allow-listed https document: every hop checked, connection pinned to the checked address. */
export async function fetchRemote(start: URL, options: FetchOptions): Promise<Fetched | ReaderFailure> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let url = start;
  for (let hop = 0; ; hop++) {
    const checked = checkUrl(url.href, options.allowedHosts);
    if (!(checked instanceof URL))
      return { ...checked, error: `${hop > 0 ? 'A redirect was refused: ' : ''}${checked.error}` };
    const pinned = await checkedAddress(checked, options);
    if (!('address' in pinned)) return pinned;
    let res: IncomingMessage;
    try {
      res = await get(checked, pinned, { ...options, signal });
    } catch (error) {
      if (deadline.aborted) return failure('fetch_timeout', `The download took longer than ${options.timeoutMs} ms.`);
      if (options.signal?.aborted) return failure('aborted', 'The download was cancelled.');
      return failure('fetch_failed', `The request failed (${(error as { code?: string }).code ?? 'network error'}).`);
    }
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.destroy();
      if (hop + 1 > options.maxRedirects)
        return failure('too_many_redirects', `More than ${options.maxRedirects} redirects.`);
      try {
        url = new URL(res.headers.location, checked);
      } catch {
        return failure('fetch_failed', 'The server sent a redirect that is not a valid URL.');
      }
      continue;
    }
    if (status !== 200) {
      res.destroy();
      return failure('fetch_failed', `The server answered HTTP ${status}.`);
    }
    try {
      const body = await readBody(res, options.maxBytes);
      if (body === 'too_large') return failure('too_large', `The document is larger than ${options.maxBytes} bytes.`);
      return { ok: true, bytes: body, contentType: String(res.headers['content-type'] ?? ''), finalUrl: checked };
    } catch {
      if (deadline.aborted) return failure('fetch_timeout', `The download took longer than ${options.timeoutMs} ms.`);
      return failure('fetch_failed', 'The download broke off.');
    }
  }
}
