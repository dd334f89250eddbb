/** The signals that stop a running command, with the exit code each gives (the shell's 128 + signal number). */
export const SIGNAL_EXIT_CODES = Object.freeze({ SIGHUP: 129, SIGINT: 130, SIGTERM: 143 });

/** A signal that stops a running command. */
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

/** Exit code when stdout was closed before the output was written (`bough call … | head`): 128 + SIGPIPE. */
export const EXIT_STDOUT_CLOSED = 141;
