import { failure, type ReaderFailure } from '../errors.js';

/** Normalises a host for comparison: lower case, one trailing dot removed, IPv6 brackets kept. */
export function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

/**
 * The form a configured allow-list entry takes after the same parsing a URL's host gets: IDNA to punycode, IPv4
 * shorthand to dotted quads, IPv6 compressed, case folded. So `bücher.example` in the list matches its punycode URL.
 */
export function canonicalAllowedHost(entry: string): string {
  const trimmed = entry.trim();
  try {
    return normalizeHost(new URL(`https://${trimmed}/`).hostname);
  } catch {
    return normalizeHost(trimmed);
  }
}

/**
 * The one rule for telling URLs from paths: any string the WHATWG URL parser reads as an absolute URL is a URL
 * (`data:text/plain,hi`, `javascript:alert(1)`, `ftp://…`), never a file name; so is a `scheme://` string the parser
 * refuses (a broken URL, reported as `invalid_url`).
 */
export function isUrlLike(path: string): boolean {
  return URL.canParse(path) || /^[a-z][a-z0-9+.-]*:\/\//i.test(path);
}

/** The refusal for a URL whose scheme is not https: only https documents are ever fetched. */
export function unsupportedScheme(url: string): ReaderFailure {
  const scheme = URL.canParse(url) ? new URL(url).protocol.replace(':', '') : url.slice(0, url.indexOf(':'));
  return failure(
    'unsupported_scheme',
    `${JSON.stringify(scheme)} URLs are not read: only https documents can be opened. A workspace file whose name ` +
      'looks like a URL cannot be read by that name; rename it or use a path such as "./name".',
  );
}

/** Checks a URL string against the remote-document rules; returns the parsed URL or a refusal. */
export function checkUrl(raw: string, allowedHosts: readonly string[]): URL | ReaderFailure {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return failure('invalid_url', 'The URL could not be parsed. Give a full https:// address.');
  }
  if (url.protocol !== 'https:') return unsupportedScheme(raw);
  if (url.username !== '' || url.password !== '') {
    return failure('url_not_allowed', 'URLs with a user name or password are refused.');
  }
  if (url.port !== '' && url.port !== '443') {
    return failure('url_not_allowed', 'Only the standard https port 443 is allowed.');
  }
  const host = normalizeHost(url.hostname);
  const allowed = new Set(allowedHosts.map(canonicalAllowedHost));
  if (allowed.size === 0) {
    return failure('url_not_allowed', 'Remote documents are disabled for this reader (no hosts are allowed).');
  }
  if (!allowed.has(host)) {
    return failure('url_not_allowed', `The host ${JSON.stringify(host)} is not on this reader's allow-list.`);
  }
  return url;
}
