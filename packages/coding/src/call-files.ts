import type { EditorFileExchange, KnownFile } from '@bough/editor';

/**
 * Files shared between the read-before-edit guard, a tool that changes files and the file state, for each call in
 * flight: the file the guard read (offered under the name the request gives) and the bytes the tool wrote (by real
 * path). Everything a call left is dropped when it ends.
 */
export class CallFiles implements EditorFileExchange {
  readonly #known = new Map<string, Map<string, KnownFile>>();
  readonly #written = new Map<string, Map<string, Buffer>>();

  /** How the guard offers what it read for one call. */
  offerFor(callId: string): (filePath: string, known: KnownFile) => void {
    return (filePath, known) => {
      filesOf(this.#known, callId).set(filePath, known);
    };
  }

  known(callId: string, filePath: string): KnownFile | undefined {
    return this.#known.get(callId)?.get(filePath);
  }

  wrote(callId: string, path: string, bytes: Buffer): void {
    filesOf(this.#written, callId).set(path, bytes);
  }

  /** The bytes the tool wrote to `path` (real, absolute) during the call, if it said. */
  written(callId: string, path: string): Buffer | undefined {
    return this.#written.get(callId)?.get(path);
  }

  /** Forgets everything of a call that ended. */
  end(callId: string): void {
    this.#known.delete(callId);
    this.#written.delete(callId);
  }
}

/** The files one call has in `byCall`, made empty on first use. */
function filesOf<T>(byCall: Map<string, Map<string, T>>, callId: string): Map<string, T> {
  let files = byCall.get(callId);
  if (!files) {
    files = new Map();
    byCall.set(callId, files);
  }
  return files;
}
