/**
 * fnmatch-style matching for permission rules: `*` matches any run of characters (slashes included), `?` one
 * character, `[abc]` / `[!abc]` a character class; everything else is literal. Matching is case-insensitive.
 */
export function globMatch(pattern: string, text: string): boolean {
  return compile(pattern).test(text);
}

const cache = new Map<string, RegExp>();

function compile(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const regex = new RegExp(`^${globSource(pattern)}$`, 'i');
  if (cache.size > 500) cache.clear();
  cache.set(pattern, regex);
  return regex;
}

/**
 * One case-insensitive expression that matches a text when any of `patterns` does (none: never), so a list of rules
 * costs one test; {@link globMatch} then tells which pattern it was.
 */
export function anyGlob(patterns: readonly string[]): RegExp {
  if (patterns.length === 0) return /(?!)/;
  return new RegExp(`^(?:${patterns.map(globSource).join('|')})$`, 'i');
}

/** The regular expression text of one pattern (unanchored). */
function globSource(pattern: string): string {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '*') source += '[\\s\\S]*';
    else if (ch === '?') source += '[\\s\\S]';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) {
        source += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      source += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, (c) => `\\${c}`)}]`;
      i = end;
    } else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, (c) => `\\${c}`);
  }
  return source;
}
