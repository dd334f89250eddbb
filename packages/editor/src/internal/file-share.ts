import type { EditorFileExchange, KnownFile } from '../file-exchange.js';

/** One call's view of an exchange (internal: the handler binds the call id). */
export interface FileShare {
  known(filePath: string): KnownFile | undefined;
  wrote(path: string, bytes: Buffer): void;
}

/** The share of a call made without an exchange: nothing known, nothing told. */
export const NO_SHARE: FileShare = Object.freeze({ known: () => undefined, wrote: () => {} });

/** Binds an exchange to one call (no exchange or no call id: {@link NO_SHARE}). */
export function shareOf(exchange: EditorFileExchange | undefined, callId: string | undefined): FileShare {
  if (!exchange || callId === undefined) return NO_SHARE;
  return {
    known: (filePath) => exchange.known?.(callId, filePath),
    wrote: (path, bytes) => exchange.wrote?.(callId, path, bytes),
  };
}
