import type { Workspace } from '@bough/workspace';
import type { TextEncodingName } from './text-codec.js';

/** What `write` keeps from the file it replaces: its BOM/UTF-16 encoding and whether it used CRLF throughout. */
export interface FileStyle {
  readonly encoding: TextEncodingName;
  readonly crlf: boolean;
}

/** Samples the head of an existing file; undefined when there is no readable file (write then decides alone). */
export async function sampleStyle(ws: Workspace, path: string, sampleBytes: number): Promise<FileStyle | undefined> {
  // A sample's worth of file is read as it is opened, without the thread pool.
  const opened = await ws.openOrLoad(path, { loadBytes: sampleBytes });
  if (!opened.success) return undefined;
  if (opened.bytes) return styleOf(opened.bytes);
  let sample: Buffer;
  try {
    const buffer = Buffer.alloc(Math.min(sampleBytes, opened.size));
    const { bytesRead } = await opened.handle.read(buffer, 0, buffer.length, 0);
    sample = buffer.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
  return styleOf(sample);
}

/** The style of a file from the first bytes of it. */
export function styleOf(sample: Buffer): FileStyle {
  const encoding: TextEncodingName =
    sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf
      ? 'utf-8-bom'
      : sample[0] === 0xff && sample[1] === 0xfe
        ? 'utf-16le'
        : sample[0] === 0xfe && sample[1] === 0xff
          ? 'utf-16be'
          : 'utf-8';
  return { encoding, crlf: usesCrlfOnly(sample, encoding) };
}

function usesCrlfOnly(sample: Buffer, encoding: TextEncodingName): boolean {
  const width = encoding === 'utf-16le' || encoding === 'utf-16be' ? 2 : 1;
  const lowFirst = encoding !== 'utf-16be';
  const unit = (i: number): number =>
    width === 1 ? sample[i]! : lowFirst ? sample[i]! | (sample[i + 1]! << 8) : (sample[i]! << 8) | sample[i + 1]!;
  let lf = 0;
  let crlf = 0;
  for (let i = width === 2 ? 2 : 0; i + width <= sample.length; i += width) {
    if (unit(i) !== 0x0a) continue;
    lf++;
    if (i >= width && unit(i - width) === 0x0d) crlf++;
  }
  return lf > 0 && crlf === lf;
}
