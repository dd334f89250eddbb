import type { Readable } from 'node:stream';
import { UsageError } from './args.js';

/** Reads a whole stream as UTF-8, refusing (with a usage error) input longer than `maxBytes`. */
export async function readAll(stream: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxBytes) {
      stream.destroy();
      throw new UsageError(`The JSON on stdin is larger than ${maxBytes} bytes; pass a smaller request.`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
