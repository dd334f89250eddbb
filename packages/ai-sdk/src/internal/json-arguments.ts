/** The outcome of reading a model's tool-argument text: the value, or what was wrong and at which character. */
export type ParsedArguments =
  | { readonly success: true; readonly value: unknown }
  | { readonly success: false; readonly raw: string; readonly error: string };

const EXCERPT = 24;

/**
 * Parses tool-argument text as JSON. Empty text means `{}` (some servers send that for a call without arguments).
 * On failure the error names the position and shows the text around it, so a model can see its own mistake.
 */
export function parseToolArguments(raw: string): ParsedArguments {
  if (raw.trim() === '') return { success: true, value: {} };
  try {
    return { success: true, value: JSON.parse(raw) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const found = /position (\d+)/.exec(message);
    const position = found ? Number(found[1]) : raw.length;
    const before = raw.slice(Math.max(0, position - EXCERPT), position);
    const after = raw.slice(position, position + EXCERPT);
    const where =
      position >= raw.length ? `at the end (position ${position}, the text stops early)` : `at position ${position}`;
    const cause = message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
    return {
      success: false,
      raw,
      error: `${cause} ${where}: ${JSON.stringify(before)} ⟨here⟩ ${JSON.stringify(after)}`,
    };
  }
}
