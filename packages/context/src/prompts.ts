/** The instruction sent to the model before the collapsed span when compact runs with auto=true. */
export const SUMMARY_INSTRUCTION =
  'You are compressing part of an agent conversation so it can be dropped from the context window. Write a few ' +
  'sentences that keep what the agent will still need: the root cause of anything it investigated, any fix it ' +
  'applied (file and lines), what it verified, and which files it must read again later. Reply with the summary only.';

/** The marker that starts every compaction summary, so a reader can tell it from ordinary assistant text. */
export const COMPACTION_PREFIX = '[CONTEXT COMPACTION]';
