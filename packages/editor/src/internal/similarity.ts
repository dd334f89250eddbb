/** Dice coefficient over character bigrams: 1 for equal strings, near 0 for unrelated ones; O(length). */
export function diceSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const counts = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const gram = a.slice(i, i + 2);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const gram = b.slice(i, i + 2);
    const left = counts.get(gram) ?? 0;
    if (left > 0) {
      shared++;
      counts.set(gram, left - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

/** Whether two lengths are close enough that their strings could be similar (cheap filter before Dice). */
export function comparableLengths(a: number, b: number): boolean {
  return a <= b * 2 + 4 && b <= a * 2 + 4;
}
