/** Receives new file content piece by piece; every piece lands at an explicit byte position of the new content. */
export interface ReplacementSink {
  /**
   * Writes all of `data` at byte `position` of the new content. Writes may overlap in time (each is positional);
   * the replacement waits for all of them before it is made durable. Rejects past the workspace write limit.
   */
  write(data: Uint8Array, position: number): Promise<void>;
}

/** Fills a replacement; resolving `false` abandons it (the temp file is removed and the target left as it was). */
export type FillReplacement = (sink: ReplacementSink) => Promise<boolean>;
