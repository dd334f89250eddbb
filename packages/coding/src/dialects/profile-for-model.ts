import type { DialectProfile } from './profiles.js';

/**
 * Model families and the profile whose tools each was trained on. A name matches a family when one of its
 * `/`-, `:`- or `.`-separated segments (provider prefixes such as `anthropic/` or `openrouter/openai/` are common)
 * starts with the pattern, so `claude-sonnet-4-5`, `anthropic/claude-opus-4` and `us.anthropic.claude-3-7` all match.
 */
const FAMILIES: readonly (readonly [RegExp, DialectProfile])[] = [
  [/^claude/, 'anthropic'],
  // GPT models, the o-series reasoning models (o1, o3, o4-mini …) and Codex models were trained on apply_patch.
  [/^(gpt|chatgpt|codex|o\d)/, 'openai'],
  [/^gemini/, 'gemini'],
];

/**
 * The tool profile a model was trained on, read from its name: `anthropic` for Claude, `openai` for GPT, the
 * o-series and Codex, `gemini` for Gemini, and bough's own `full` set for any other model.
 */
export function profileForModel(model: string): DialectProfile {
  const segments = model.toLowerCase().split(/[/:.@]/);
  for (const [pattern, profile] of FAMILIES) if (segments.some((segment) => pattern.test(segment))) return profile;
  return 'full';
}
