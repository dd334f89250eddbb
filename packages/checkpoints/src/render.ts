/** The text a model reads for a checkpoints answer: a diff as it is; other answers use core's generic text. */
export function checkpointsModelText(output: unknown): string | undefined {
  if (typeof output !== 'object' || output === null) return undefined;
  const diff = (output as { diff?: unknown }).diff;
  return typeof diff === 'string' && diff !== '' ? diff : undefined;
}
