/**
 * A path glob as a regular expression over workspace-relative posix paths. Two stars and a slash stand for any
 * number of directories, two stars for anything, `*` for any run within one segment, `?` for one character within
 * a segment; everything else is literal, and a leading `./` is dropped. A glob without a slash matches the last
 * segment in any directory (`*.py` matches `a/b.py`), as ruff's per-file rules and the protected-name patterns both
 * mean it.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  const pattern = glob.replace(/^\.\//, '');
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*' && pattern[i + 1] === '*') {
      const dirs = pattern[i + 2] === '/';
      source += dirs ? '(?:.*/)?' : '.*';
      i += dirs ? 2 : 1;
    } else if (ch === '*') source += '[^/]*';
    else if (ch === '?') source += '[^/]';
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(pattern.includes('/') ? `^${source}$` : `(?:^|/)${source}$`, 'su');
}
