const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the five XML entities and numeric character references in element text. */
export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref] ?? whole;
  });
}

/**
 * Start tags named `name` (e.g. `<a:t …>`), found with plain index scans so hostile markup (thousands of tags that are
 * never closed) costs time linear in its length; a regex with a lazy body would rescan to the end for every tag.
 */
export function* startTags(xml: string, name: string): Generator<{ tag: string; end: number }> {
  const open = `<${name}`;
  let at = xml.indexOf(open);
  while (at >= 0) {
    const after = xml.charCodeAt(at + open.length);
    // only the exact name: '>', '/', or whitespace must follow (so '<a:t' does not match '<a:tab')
    if (after === 62 || after === 47 || after === 32 || after === 9 || after === 10 || after === 13) {
      const close = xml.indexOf('>', at + open.length);
      if (close < 0) return;
      yield { tag: xml.slice(at, close + 1), end: close + 1 };
      at = xml.indexOf(open, close + 1);
    } else {
      at = xml.indexOf(open, at + open.length);
    }
  }
}

/** The decoded text of every `<name>…</name>` element in order, in time linear in the input. */
export function elementTexts(xml: string, name: string): string[] {
  const out: string[] = [];
  const closing = `</${name}>`;
  let resumeAt = 0;
  for (const { tag, end } of startTags(xml, name)) {
    if (end <= resumeAt) continue;
    if (tag.endsWith('/>')) continue;
    const close = xml.indexOf(closing, end);
    if (close < 0) break; // nothing after this point is ever closed
    out.push(decodeXmlText(xml.slice(end, close)));
    resumeAt = close + closing.length;
  }
  return out;
}
