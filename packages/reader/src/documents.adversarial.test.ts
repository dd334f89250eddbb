import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { makeDocx, makePdf, makeWorkspace, makeZip, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleReader, type ReaderOptions } from './index.js';

type Out = { success: boolean; error_code?: string; content?: string; error?: string };

describe('reader open on hostile documents', () => {
  let ws: TempWorkspace;
  let before: string;
  beforeEach(() => {
    ws = makeWorkspace({ 'ok.html': '<p>still alive</p>' });
    before = snapshotTree(ws.outside);
  });
  afterEach(async () => {
    // every case: nothing outside changed, no outside byte leaked, and the tool still answers
    expect(snapshotTree(ws.outside)).toBe(before);
    const next = (await handleReader({ action: 'open', path: 'ok.html' }, { workspaceRoot: ws.root })) as Out;
    expect(next).toMatchObject({ success: true });
    expect(next.content).toMatch(/still alive/);
    ws.cleanup();
  });
  const open = async (path: string, options: Partial<ReaderOptions> = {}) => {
    const out = (await handleReader({ action: 'open', path }, { workspaceRoot: ws.root, ...options })) as Out;
    expect(JSON.stringify(out)).not.toContain('OUTSIDE-SECRET-CANARY');
    return out;
  };

  // The html converter is super-linear on these shapes (seconds for kilobytes); it is synchronous, so only a
  // worker that can be terminated keeps the time limit real. Without that these calls would block for hours.
  it.each([
    ['unclosed <pre> full of tags', `<pre>${'<b>'.repeat(20_000)}`],
    ['comment openers that never close', '<!--'.repeat(400_000)],
  ])('stops a pathological html conversion at the time limit: %s', async (_name, html) => {
    ws.write('bomb.html', html);
    const out = await open('bomb.html', { limits: { conversionTimeoutMs: 1500 } });
    expect(out).toMatchObject({ success: false, error_code: 'conversion_timeout' });
  });

  it('cancels a running conversion when the signal aborts', async () => {
    ws.write('bomb.html', `<pre>${'<b>'.repeat(20_000)}`);
    const controller = new AbortController();
    const pending = handleReader(
      { action: 'open', path: 'bomb.html' },
      { workspaceRoot: ws.root, signal: controller.signal, limits: { conversionTimeoutMs: 600_000 } },
    );
    setTimeout(() => controller.abort(), 300);
    expect(await pending).toMatchObject({ success: false, error_code: 'aborted' });
  });

  it('extracts pptx text from thousands of never-closed runs in linear time', async () => {
    // 150k '<a:t>' openers with no closer: a lazy regex rescans to the end for each one (minutes of blocked host)
    const slide = `<p:sld><a:p><a:r><a:t>kept</a:t></a:r>${'<a:t>x'.repeat(150_000)}</a:p></p:sld>`;
    ws.write('runs.pptx', makeZip({ 'ppt/slides/slide1.xml': slide }));
    const out = await open('runs.pptx');
    expect(out).toMatchObject({ success: true });
    expect(out.content).toBe('1\t--- Slide 1 ---\n2\tkept');
  });

  it('keeps ordering scans linear on a pptx whose relationship tags never close', async () => {
    ws.write(
      'rels.pptx',
      makeZip({
        'ppt/presentation.xml': `<p:presentation>${'<p:sldId r:id="rId1" '.repeat(100_000)}`,
        'ppt/_rels/presentation.xml.rels': `<Relationships>${'<Relationship Id="rId1" '.repeat(100_000)}`,
        'ppt/slides/slide1.xml': '<p:sld><a:p><a:r><a:t>only slide</a:t></a:r></a:p></p:sld>',
      }),
    );
    const out = await open('rels.pptx');
    expect(out).toMatchObject({ success: true });
    expect(out.content).toMatch(/only slide/);
  });

  it('converts html without running its scripts or keeping their text', async () => {
    ws.write(
      'evil.html',
      '<h1>Heading</h1><script>globalThis.__bkHtmlRan = 1; document.write("SCRIPT-TEXT")</script>' +
        '<img src=x onerror="globalThis.__bkHtmlRan = 2"><iframe srcdoc="<script>parent.x=1</script>"></iframe>' +
        '<template><p>TEMPLATE-TEXT</p></template><p>body text</p>',
    );
    const out = await open('evil.html');
    expect(out).toMatchObject({ success: true });
    expect(out.content).toMatch(/Heading/);
    expect(out.content).toMatch(/body text/);
    expect(out.content).not.toMatch(/SCRIPT-TEXT|__bkHtmlRan|TEMPLATE-TEXT/);
    expect((globalThis as { __bkHtmlRan?: number }).__bkHtmlRan).toBeUndefined();
  });

  it('extracts a pdf carrying JavaScript actions without running them', async () => {
    const js = '/OpenAction << /S /JavaScript /JS (globalThis.__bkPdfRan = 1; app.alert\\(1\\)) >>';
    ws.write('js.pdf', makePdf(['Visible page text'], js));
    const out = await open('js.pdf');
    expect(out).toMatchObject({ success: true });
    expect(out.content).toMatch(/Visible page text/);
    expect(out.content).not.toMatch(/__bkPdfRan/);
    expect((globalThis as { __bkPdfRan?: number }).__bkPdfRan).toBeUndefined();
  });

  it('runs pdf.js with script evaluation disabled', () => {
    const source = readFileSync(new URL('./convert/isolated.ts', import.meta.url), 'utf8');
    expect(source).toMatch(/isEvalSupported: false/);
    expect(source).not.toMatch(/isEvalSupported: true/);
  });

  it('does not open zips nested inside a docx or pptx (an inner bomb stays compressed)', async () => {
    const inner = makeZip({ 'zeros.bin': Buffer.alloc(40 * 1024 * 1024) });
    const limits = { maxZipEntryBytes: 4 * 1024 * 1024, maxZipTotalBytes: 8 * 1024 * 1024 };
    const docx = makeZip({
      'word/document.xml':
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>outer text</w:t></w:r></w:p></w:body></w:document>',
      'word/embeddings/inner.zip': inner,
    });
    ws.write('nested.docx', docx);
    ws.write('nested.pptx', makeZip({ 'ppt/slides/slide1.xml': '<a:p><a:t>slide</a:t></a:p>', 'x.zip': inner }));
    const d = await open('nested.docx', { limits });
    expect(d.success ? d.content : d.error_code).toMatch(/outer text|conversion_failed/);
    expect(await open('nested.pptx', { limits })).toMatchObject({ success: true });
  });

  it('refuses a docx whose inflated parts pass the caps even when each entry looks small', async () => {
    const part = Buffer.alloc(3 * 1024 * 1024, 0x20);
    const files: Record<string, Buffer | string> = { 'word/document.xml': '<w:document/>' };
    for (let i = 0; i < 5; i++) files[`word/media/pad${i}.xml`] = part;
    ws.write('wide.docx', makeZip(files));
    const out = await open('wide.docx', {
      limits: { maxZipEntryBytes: 4 * 1024 * 1024, maxZipTotalBytes: 8 * 1024 * 1024 },
    });
    expect(out).toMatchObject({ success: false, error_code: 'document_too_large' });
  });

  it('refuses a zip whose directory claims more entries than the cap, and one using an unknown method', async () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}.xml`, 'x']));
    ws.write('many.docx', makeZip({ ...many, 'word/document.xml': '<w:document/>' }));
    expect(await open('many.docx', { limits: { maxZipEntries: 10 } })).toMatchObject({
      error_code: 'document_too_large',
    });
    const odd = makeZip({ 'word/document.xml': '<w:document/>' });
    odd.writeUInt16LE(99, 8); // local header method
    const dirAt = odd.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    odd.writeUInt16LE(99, dirAt + 10); // central directory method
    ws.write('odd.docx', odd);
    expect(await open('odd.docx')).toMatchObject({ error_code: 'invalid_document' });
  });

  it('reports a converter that runs out of its memory budget as a typed failure', async () => {
    ws.write('big.html', `<table>${'<tr><td>cell</td><td>cell</td></tr>'.repeat(120_000)}</table>`);
    const out = await open('big.html', { limits: { conversionMemoryMb: 16, conversionTimeoutMs: 60_000 } });
    expect(out).toMatchObject({ success: false });
    expect(out.error_code).toBe('document_too_large');
  });

  it('turns garbage in every document type into a typed failure', async () => {
    const junk = deflateRawSync(Buffer.from('not a document'));
    ws.write('junk.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), junk]));
    ws.write('junk.docx', makeDocx(['x']).subarray(0, 40));
    ws.write('empty.pptx', Buffer.alloc(0));
    for (const name of ['junk.pdf', 'junk.docx', 'empty.pptx']) {
      const out = await open(name);
      expect(out.success, name).toBe(false);
      expect(out.error_code, name).toMatch(/^(conversion_failed|invalid_document)$/);
    }
  });
});
