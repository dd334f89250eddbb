import { errorMessage } from '@bough/core';
import type { Workspace } from '@bough/workspace';
import { extensionOf } from '@bough/workspace/internal';
import { convertDocument, type DocumentKind, kindOfExtension } from './convert/convert.js';
import { ConversionAborted, ConversionOutOfMemory, ConversionTimeout } from './convert/isolated.js';
import { failure } from './errors.js';
import { readBounded } from './internal/read-bounded.js';
import { textResponse } from './internal/text-response.js';
import { textWindow } from './internal/text-window.js';
import { ZipError } from './internal/zip.js';
import type { ReaderLimits } from './limits.js';
import type { Window } from './read-file.js';
import type { ReaderOptions } from './reader-options.js';
import { fetchRemote } from './remote/fetch-remote.js';
import { checkUrl } from './remote/url-policy.js';
import type { ReaderResponse } from './schema.js';

const REMOTE_KINDS: readonly DocumentKind[] = ['html', 'pdf', 'docx', 'pptx'];
const ALLOWED = "'.pdf', '.docx', '.pptx', '.html', '.htm'";

/** Whether `open` handles files with this extension. */
export function isDocumentExtension(ext: string): boolean {
  return kindOfExtension(ext) !== undefined;
}

function kindOfContentType(contentType: string, url: URL): DocumentKind | undefined {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/pdf') return 'pdf';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.endsWith('wordprocessingml.document')) return 'docx';
  if (type.endsWith('presentationml.presentation')) return 'pptx';
  return kindOfExtension(extensionOf(url.pathname));
}

async function convert(
  kind: DocumentKind,
  bytes: Buffer,
  name: string,
  limits: ReaderLimits,
  signal: AbortSignal | undefined,
): Promise<string | ReaderResponse> {
  try {
    const text = await convertDocument(kind, bytes, limits, signal);
    return text.length > limits.maxConvertedChars
      ? `${text.slice(0, limits.maxConvertedChars)}\n… [converted text cut at ${limits.maxConvertedChars} characters]`
      : text;
  } catch (error) {
    if (error instanceof ZipError) return failure(error.code, `${name}: ${error.message}`);
    if (error instanceof ConversionTimeout) return failure('conversion_timeout', `${name}: ${error.message}`);
    if (error instanceof ConversionOutOfMemory) return failure('document_too_large', `${name}: ${error.message}`);
    if (error instanceof ConversionAborted) return failure('aborted', error.message);
    return failure(
      'conversion_failed',
      `${name} could not be converted (${errorMessage(error).slice(0, 300)}). It may be damaged or not a real ${kind} file.`,
    );
  }
}

function respond(
  text: string,
  where: { path: string; relative: string; size: number },
  kind: DocumentKind,
  cached: boolean,
  window: Window,
  limits: ReaderLimits,
): ReaderResponse {
  const result = textWindow(text, window.offset, window.limit, limits.maxLineChars, limits.maxOutputBytes);
  return textResponse(where, result, {
    encoding: 'utf-8',
    source: kind,
    offset: window.offset,
    maxLineChars: limits.maxLineChars,
    cached,
    lead: `Converted ${kind} to text. `,
  });
}

/** The `open` action: convert a local document (or an allowed https URL) and show a window of its text. */
export async function openDocument(
  ws: Workspace | undefined,
  path: string,
  window: Window,
  limits: ReaderLimits,
  options: ReaderOptions & { signal?: AbortSignal },
): Promise<ReaderResponse> {
  if (!ws) return openRemote(path, window, limits, options);
  const kind = kindOfExtension(extensionOf(path));
  if (!kind) {
    // the path is judged first, so a refused path is reported as such whatever its extension
    const checked = await ws.resolve(path, 'read');
    if (!checked.success) return checked;
    return failure('unsupported_document', `open converts only ${ALLOWED} files; use action 'read' for text files.`);
  }
  const file = await ws.openRead(path, { maxBytes: kind === 'html' ? limits.maxHtmlBytes : limits.maxDocumentBytes });
  if (!file.success) return file;
  const where = { path: file.path, relative: file.relative, size: file.size };
  const fingerprint = `${file.size}:${file.mtimeMs}`;
  let bytes: Buffer;
  try {
    const hit = options.cache?.get(file.path, fingerprint);
    if (hit !== undefined) return respond(hit, where, kind, true, window, limits);
    bytes = await readBounded(file.handle, file.size);
  } catch (error) {
    return failure(
      'io_error',
      `Could not read ${file.relative} (${(error as { code?: string }).code ?? 'read error'}).`,
    );
  } finally {
    await file.handle.close().catch(() => undefined);
  }
  const text = await convert(kind, bytes, file.relative, limits, options.signal);
  if (typeof text !== 'string') return text;
  options.cache?.set(file.path, fingerprint, text);
  return respond(text, where, kind, false, window, limits);
}

async function openRemote(
  raw: string,
  window: Window,
  limits: ReaderLimits,
  options: ReaderOptions & { signal?: AbortSignal },
): Promise<ReaderResponse> {
  const url = checkUrl(raw, options.allowedHosts ?? []);
  if (!(url instanceof URL)) return url;
  const key = url.href;
  for (const kind of REMOTE_KINDS) {
    const hit = options.cache?.get(key, `remote:${kind}`);
    if (hit !== undefined)
      return respond(hit, { path: key, relative: key, size: hit.length }, kind, true, window, limits);
  }
  const fetched = await fetchRemote(url, {
    allowedHosts: options.allowedHosts ?? [],
    ...(options.resolver ? { resolver: options.resolver } : {}),
    ...(options.fetchPolicy ? { policy: options.fetchPolicy } : {}),
    maxBytes: limits.maxDocumentBytes,
    timeoutMs: limits.conversionTimeoutMs,
    maxRedirects: limits.maxRedirects,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!('ok' in fetched)) return fetched;
  const kind = kindOfContentType(fetched.contentType, fetched.finalUrl);
  if (!kind)
    return failure(
      'unsupported_document',
      `The URL returned ${fetched.contentType || 'an unknown type'}; open converts only pdf, docx, pptx and html.`,
    );
  if (kind === 'html' && fetched.bytes.length > limits.maxHtmlBytes) {
    return failure(
      'too_large',
      `The page is ${fetched.bytes.length} bytes, over the ${limits.maxHtmlBytes}-byte HTML limit.`,
    );
  }
  const text = await convert(kind, fetched.bytes, key, limits, options.signal);
  if (typeof text !== 'string') return text;
  options.cache?.set(key, `remote:${kind}`, text);
  return respond(text, { path: key, relative: key, size: fetched.bytes.length }, kind, false, window, limits);
}
