import { Worker } from 'node:worker_threads';

/** Document kinds whose conversion is third-party code and therefore runs in a worker that can be killed. */
export type IsolatedKind = 'pdf' | 'docx' | 'html';

/** Bounds of one isolated conversion. */
export interface IsolatedOptions {
  timeoutMs: number;
  memoryMb: number;
  /** Characters of text sent back; more is cut in the worker, so a huge result never crosses over. */
  maxChars: number;
  signal?: AbortSignal;
}

/** The conversion outlived its time budget; the worker was terminated. */
export class ConversionTimeout extends Error {
  override readonly name = 'ConversionTimeout';
}

/** The conversion hit the worker's heap limit; the worker was terminated. */
export class ConversionOutOfMemory extends Error {
  override readonly name = 'ConversionOutOfMemory';
}

/** The caller's signal aborted the conversion; the worker was terminated. */
export class ConversionAborted extends Error {
  override readonly name = 'ConversionAborted';
}

/** Elements whose content never reaches the text (and is never run: the converters only parse markup). */
export const HTML_IGNORED = ['script', 'style', 'noscript', 'iframe', 'object', 'embed', 'template'];

// Plain CommonJS evaluated inside the worker. Converter packages are loaded relative to this module, so the same code
// works from the sources (tests) and from dist/. pdf.js runs with eval support off, mammoth with no file access.
const SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const load = createRequire(workerData.from);
const asBuffer = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
// unpdf and mammoth are optional peers (installed only by those who read PDF or DOCX files).
function optional(name, what) {
  try {
    return load(name);
  } catch (error) {
    if (error && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes("'" + name + "'")) {
      throw new Error(what + ' needs the optional package ' + name + ', which is not installed (npm install ' + name + ')');
    }
    throw error;
  }
}
function markdown(html) {
  const { NodeHtmlMarkdown } = load('node-html-markdown');
  return NodeHtmlMarkdown.translate(html, { ignore: workerData.ignored });
}
async function pdf(bytes) {
  const { extractText, getDocumentProxy } = optional('unpdf', 'Reading PDF');
  const doc = await getDocumentProxy(bytes, {
    isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: true, enableXfa: false,
  });
  try {
    const { text } = await extractText(doc, { mergePages: false });
    return text.map((page, i) => '--- Page ' + (i + 1) + ' ---\\n' + page).join('\\n');
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
async function docx(bytes) {
  const mammoth = optional('mammoth', 'Reading DOCX');
  const result = await mammoth.convertToHtml(
    { buffer: asBuffer(bytes) },
    { externalFileAccess: false, convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
  );
  return markdown(result.value.replace(/<img\\b[^>]*>/g, '[image]'));
}
async function run() {
  const { kind, bytes } = workerData;
  if (kind === 'pdf') return pdf(bytes);
  if (kind === 'docx') return docx(bytes);
  return markdown(asBuffer(bytes).toString('utf8'));
}
run().then(
  (text) => parentPort.postMessage({ ok: true, text: text.length > workerData.maxChars ? text.slice(0, workerData.maxChars + 1) : text }),
  (error) => parentPort.postMessage({ ok: false, message: String((error && error.message) || error).slice(0, 500) }),
);
`;

/**
 * Converts a document in a worker thread with its own heap limit. The parsers are synchronous and some are
 * super-linear on hostile markup, so a timer in this thread could never fire; terminating the worker always works.
 */
export function convertIsolated(kind: IsolatedKind, bytes: Uint8Array, options: IsolatedOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new ConversionAborted('The conversion was cancelled.'));
      return;
    }
    const worker = new Worker(SOURCE, {
      eval: true,
      workerData: { kind, bytes, from: import.meta.url, ignored: HTML_IGNORED, maxChars: options.maxChars },
      resourceLimits: { maxOldGenerationSizeMb: Math.max(16, options.memoryMb) },
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume(); // pdf.js warnings are noise, not output
    worker.stderr.resume();
    let settled = false;
    const finish = (error: Error | undefined, text?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (error) reject(error);
      else resolve(text ?? '');
    };
    const onAbort = () => finish(new ConversionAborted('The conversion was cancelled.'));
    const timer = setTimeout(
      () => finish(new ConversionTimeout(`Conversion took longer than ${options.timeoutMs} ms and was stopped.`)),
      options.timeoutMs,
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: { ok: boolean; text?: string; message?: string }) =>
      message.ok ? finish(undefined, message.text) : finish(new Error(message.message ?? 'conversion failed')),
    );
    worker.on('error', (error: Error & { code?: string }) =>
      finish(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ConversionOutOfMemory(`Conversion needed more than ${options.memoryMb} MB of memory and was stopped.`)
          : error,
      ),
    );
    worker.on('exit', (code) => finish(new Error(`the converter stopped unexpectedly (exit ${code})`)));
  });
}
