/** Offsets of every non-overlapping occurrence of `needle` in `haystack`, scanning left to right. */
export function findMatches(haystack: string, needle: string): number[] {
  const found: number[] = [];
  if (needle === '') return found;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** Whether `needle` occurs at all (cheaper than collecting every match). */
export function occurs(haystack: string, needle: string): boolean {
  return needle !== '' && haystack.includes(needle);
}
