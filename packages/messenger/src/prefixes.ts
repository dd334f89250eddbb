/** The prefix that marks a wakeup message in the recipient's inbox. */
export const WAKEUP_PREFIX = '[WAKEUP]';
