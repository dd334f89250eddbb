import { ZipArchive, type ZipLimits } from '../internal/zip.js';
import { elementTexts, startTags } from './xml-text.js';

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
  for (const { tag } of startTags(rels, 'Relationship')) {
    const id = /\bId="([^"]+)"/.exec(tag)?.[1];
    const target = /\bTarget="([^"]+)"/.exec(tag)?.[1];
    if (id && target) targets.set(id, `ppt/${target.replace(/^\/?ppt\//, '').replace(/^\.\//, '')}`);
  }
  const ordered = new Set<string>();
  for (const { tag } of startTags(presentation, 'p:sldId')) {
    const id = /\br:id="([^"]+)"/.exec(tag)?.[1];
    const part = id === undefined ? undefined : targets.get(id);
    if (part && zip.entries.has(part)) ordered.add(part);
  }
  return ordered.size > 0 ? [...ordered] : numbered;
}

/** Text of a pptx: each slide's `<a:t>` runs, one paragraph per line, under a "--- Slide N ---" marker. */
export function pptxToText(bytes: Buffer, limits: ZipLimits): string {
  const zip = new ZipArchive(bytes, limits);
  const out: string[] = [];
  slideOrder(zip).forEach((part, i) => {
    const xml = zip.read(part)?.toString('utf8') ?? '';
    const paragraphs: string[] = [];
    for (const p of xml.split(/<\/a:p>/)) {
      const runs = elementTexts(p, 'a:t');
      if (runs.length > 0) paragraphs.push(runs.join(''));
    }
    out.push(`--- Slide ${i + 1} ---`, ...paragraphs, '');
  });
  return out.join('\n');
}
