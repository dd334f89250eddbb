/**
 * JSON text of any value without throwing: cycles become "[Circular]", bigints become strings, and a value whose
 * own serialisation hooks throw falls back to a plain description. Used wherever model-facing text is built from
 * data a tool or a caller supplied (arguments, results, thrown values).
 */
export function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text;
  } catch {
    // Fall through to the cycle-aware walk below.
  }
  try {
    const stack: unknown[] = [];
    const text = JSON.stringify(value, function replacer(this: unknown, _key: string, current: unknown) {
      if (typeof current === 'bigint') return current.toString();
      if (typeof current !== 'object' || current === null) return current;
      // `this` is the holder of `current`; unwind the stack to it so siblings are not mistaken for cycles.
      while (stack.length > 0 && stack[stack.length - 1] !== this) stack.pop();
      if (stack.includes(current)) return '[Circular]';
      stack.push(current);
      return current;
    });
    if (text !== undefined) return text;
  } catch {
    // A throwing toJSON or getter: describe the value instead.
  }
  return describe(value);
}

/** `String(value)` that never throws (objects with a throwing toString are described by their type). */
export function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return `[unprintable ${typeof value}]`;
  }
}
