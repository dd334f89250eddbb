import { ZipArchive, type ZipLimits } from '../internal/zip.js';
import { decodeXmlText } from './xml-text.js';

/** Slide part names in presentation order (from presentation.xml and its relationships), numeric order as fallback. */
function slideOrder(zip: ZipArchive): string[] {
  const numbered = [...zip.entries.keys()]
    .map((name) => /^ppt\/slides\/slide(\d+)\.xml$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => m[0]);
  const presentation = zip.read('ppt/presentation.xml')?.toString('utf8');
  const rels = zip.read('ppt/_rels/presentation.xml.rels')?.toString('utf8');
  if (!presentation || !rels) return numbered;
  const targets = new Map<string, string>();
  for (const m of rels.matchAll(/<Relationship\b[^>]*>/g)) {
    const id = /\bId="([^"]+)"/.exec(m[0])?.[1];
    const target = /\bTarget="([^"]+)"/.exec(m[0])?.[1];
    if (id && target) targets.set(id, `ppt/${target.replace(/^\/?ppt\//, '').replace(/^\.\//, '')}`);
  }
  const ordered: string[] = [];
  for (const m of presentation.matchAll(/<p:sldId\b[^>]*\br:id="([^"]+)"/g)) {
    const part = targets.get(m[1]!);
    if (part && zip.entries.has(part) && !ordered.includes(part)) ordered.push(part);
  }
  return ordered.length > 0 ? ordered : numbered;
}

/** Text of a pptx: each slide's `<a:t>` runs, one paragraph per line, under a "--- Slide N ---" marker. */
export function pptxToText(bytes: Buffer, limits: ZipLimits): string {
  const zip = new ZipArchive(bytes, limits);
  const out: string[] = [];
  slideOrder(zip).forEach((part, i) => {
    const xml = zip.read(part)?.toString('utf8') ?? '';
    const paragraphs: string[] = [];
    for (const p of xml.split(/<\/a:p>/)) {
      const runs = [...p.matchAll(/<a:t(?:\s[^>]*)?>([\s\S]*?)<\/a:t>/g)].map((m) => decodeXmlText(m[1]!));
      if (runs.length > 0) paragraphs.push(runs.join(''));
    }
    out.push(`--- Slide ${i + 1} ---`, ...paragraphs, '');
  });
  return out.join('\n');
}
