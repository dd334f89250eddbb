import type { CliIO } from '../output.js';

/**
 * Ends what a command's tools started (language servers, background jobs) and, should that fail, says so on stderr
 * instead of raising it: the command's own outcome (its exit code, or the usage error it raised) stays what the
 * command produced, and the person running it still learns that something may be left running.
 */
export async function disposeReported(
  command: string,
  dispose: () => Promise<void>,
  io: Pick<CliIO, 'stderr'>,
): Promise<void> {
  try {
    await dispose();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    io.stderr(
      `bough ${command}: warning: could not end what the tools started (${why}); a language server or background job may still be running.\n`,
    );
  }
}
