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
  const regex = new RegExp(`^${source}$`, 'i');
  if (cache.size > 500) cache.clear();
  cache.set(pattern, regex);
  return regex;
}
