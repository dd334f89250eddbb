/**
 * The port a remote document is fetched from. The URL policy admits https on its default port only, so this is
 * always 443; it lives in a module of its own so the loopback TLS tests can point it at their listener by mocking
 * this file, without any option a caller could set.
 */
export function httpsConnectPort(): number {
  return 443;
}
