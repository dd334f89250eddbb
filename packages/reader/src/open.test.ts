import { writeFileSync } from 'node:fs';
import { makeDocx, makePdf, makePptx, makeWorkspace, makeZip, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReaderTool, DocumentCache, handleReader, type ReaderTextResult } from './index.js';

type Text = ReaderTextResult & { error_code?: string; error?: string };

describe('reader open', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.cleanup());
  const open = async (path: string, extra: Record<string, unknown> = {}, options: Record<string, unknown> = {}) =>
    (await handleReader({ action: 'open', path, ...extra }, { workspaceRoot: ws.root, ...options })) as Text;

  it('converts HTML to markdown without scripts and pages it with offset/limit', async () => {
    ws.write(
      'page.html',
      '<html><head><script>alert("x")</script><style>p{}</style></head><body><h1>Title</h1><p>First para</p><ul><li>one</li><li>two</li></ul></body></html>',
    );
    const out = await open('page.html');
    expect(out).toMatchObject({ success: true, source: 'html', start_line: 1 });
    expect(out.content).toContain('# Title');
    expect(out.content).toContain('First para');
    expect(out.content).not.toContain('alert');
    const window = await open('page.html', { offset: 1, limit: 1 });
    expect(window.start_line).toBe(2);
    expect(window.content.split('\n')).toHaveLength(1);
  });

  it('converts a docx with mammoth after the zip check', async () => {
    ws.write('memo.docx', makeDocx(['Hello docx', 'Second &amp; last']));
    const out = await open('memo.docx');
    expect(out).toMatchObject({ success: true, source: 'docx' });
    expect(out.content).toMatch(/Hello docx/);
    expect(out.content).toMatch(/Second & last/);
  });

  it('extracts pptx slide text in presentation order with slide markers', async () => {
    ws.write('deck.pptx', makePptx([['Intro', 'a &lt; b'], ['Second slide'], ['Third']], [2, 0, 1]));
    const out = await open('deck.pptx');
    expect(out.content).toBe(
      [
        '1\t--- Slide 1 ---',
        '2\tThird',
        '3\t',
        '4\t--- Slide 2 ---',
        '5\tIntro',
        '6\ta < b',
        '7\t',
        '8\t--- Slide 3 ---',
        '9\tSecond slide',
      ].join('\n'),
    );
  });

  it('extracts pdf text per page with page markers; read on a .pdf opens it', async () => {
    ws.write('paper.pdf', makePdf(['Page one text', 'Page two text']));
    const out = await open('paper.pdf');
    expect(out).toMatchObject({ success: true, source: 'pdf' });
    expect(out.content).toMatch(/--- Page 1 ---\n2\tPage one text/);
    expect(out.content).toMatch(/--- Page 2 ---/);
    const viaRead = (await handleReader({ action: 'read', path: 'paper.pdf' }, { workspaceRoot: ws.root })) as Text;
    expect(viaRead.source).toBe('pdf');
  });

  it('refuses unsupported types and oversized inputs', async () => {
    ws.write('code.py', 'x = 1\n');
    expect(await open('code.py')).toMatchObject({ error_code: 'unsupported_document' });
    ws.write('big.html', `<p>${'x'.repeat(2000)}</p>`);
    expect(await open('big.html', {}, { limits: { maxHtmlBytes: 1000 } })).toMatchObject({ error_code: 'too_large' });
    ws.write('big.pdf', Buffer.alloc(3000, 0x20));
    expect(await open('big.pdf', {}, { limits: { maxDocumentBytes: 1000 } })).toMatchObject({
      error_code: 'too_large',
    });
  });

  it('refuses zip bombs in docx and pptx, honest or lying about their sizes', async () => {
    const bomb = Buffer.alloc(50 * 1024 * 1024, 0x41);
    const limits = { maxZipEntryBytes: 1024 * 1024, maxZipTotalBytes: 4 * 1024 * 1024 };
    ws.write('honest.docx', makeZip({ 'word/document.xml': bomb }));
    ws.write('liar.docx', makeZip({ 'word/document.xml': bomb }, 100));
    ws.write('liar.pptx', makeZip({ 'ppt/slides/slide1.xml': bomb }, 100));
    for (const name of ['honest.docx', 'liar.docx', 'liar.pptx']) {
      const out = await open(name, {}, { limits });
      expect(out.error_code, name).toBe('document_too_large');
      expect(out.error).toMatch(/zip bomb/);
    }
    const many = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`ppt/slides/slide${i + 1}.xml`, Buffer.alloc(400 * 1024, 0x20)]),
    );
    ws.write('wide.pptx', makeZip(many));
    expect(await open('wide.pptx', {}, { limits })).toMatchObject({ error_code: 'document_too_large' });
  });

  it('turns truncated and fake documents into typed failures', async () => {
    const pdf = makePdf(['whole']);
    ws.write('cut.pdf', pdf.subarray(0, 60));
    ws.write('fake.docx', 'not a zip at all');
    ws.write('cut.pptx', makePptx([['x']]).subarray(0, 50));
    expect((await open('cut.pdf')).error_code).toMatch(/conversion_failed/);
    expect(await open('fake.docx')).toMatchObject({ error_code: 'invalid_document' });
    expect(await open('cut.pptx')).toMatchObject({ error_code: 'invalid_document' });
    expect(await open('fake.docx')).toMatchObject({ success: false }); // still alive
  });

  it('survives a huge deeply nested html page', async () => {
    ws.write('nest.html', `${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}`);
    const out = await open('nest.html');
    expect(typeof out.success).toBe('boolean');
  });

  it('caches by real path, re-converts a changed file, and honours the TTL with an injected clock', async () => {
    let now = 1_000;
    const cache = new DocumentCache({ ttlMs: 5_000, now: () => now });
    ws.write('doc.html', '<p>version one</p>');
    const first = await open('doc.html', {}, { cache });
    expect(first).toMatchObject({ cached: false });
    expect(await open('./doc.html', {}, { cache })).toMatchObject({ cached: true });
    expect(await open(ws.path('doc.html'), {}, { cache })).toMatchObject({ cached: true });
    expect(cache.size).toBe(1);
    now += 5_001;
    expect(await open('doc.html', {}, { cache })).toMatchObject({ cached: false });
    writeFileSync(ws.path('doc.html'), '<p>version two, longer</p>');
    const changed = await open('doc.html', {}, { cache });
    expect(changed).toMatchObject({ cached: false });
    expect(changed.content).toMatch(/version two/);
  });

  it('checks the path before the cache: a cached document is not served through a refused path', async () => {
    const cache = new DocumentCache({ ttlMs: 60_000 });
    ws.write('doc.html', '<p>cached body</p>');
    await open('doc.html', {}, { cache });
    const { symlinkSync } = await import('node:fs');
    symlinkSync(ws.path('doc.html'), ws.path('alias.html'));
    const out = await open('alias.html', {}, { cache });
    expect(out).toMatchObject({ error_code: 'symlink_rejected' });
    expect(JSON.stringify(out)).not.toContain('cached body');
  });

  it('the tool factory really uses its cacheTtlMs option (and limits.cacheTtlMs) for its own cache', async () => {
    ws.write('doc.html', '<p>x</p>');
    const ctx = { signal: new AbortController().signal, callId: 'c' };
    const req = { action: 'open' as const, path: 'doc.html' };
    const cachedOnSecondCall = async (tool: ReturnType<typeof createReaderTool>) => {
      await tool.handler(req, ctx);
      return ((await tool.handler(req, ctx)) as { cached?: boolean }).cached;
    };
    expect(await cachedOnSecondCall(createReaderTool({ workspaceRoot: ws.root }))).toBe(true);
    expect(await cachedOnSecondCall(createReaderTool({ workspaceRoot: ws.root, cacheTtlMs: 0 }))).toBe(false);
    expect(await cachedOnSecondCall(createReaderTool({ workspaceRoot: ws.root, limits: { cacheTtlMs: 0 } }))).toBe(
      false,
    );
    expect(await cachedOnSecondCall(createReaderTool({ workspaceRoot: ws.root, cacheTtlMs: 60_000 }))).toBe(true);
  });

  it('a zero TTL disables caching', async () => {
    const cache = new DocumentCache({ ttlMs: 0 });
    ws.write('doc.html', '<p>x</p>');
    await open('doc.html', {}, { cache });
    expect(await open('doc.html', {}, { cache })).toMatchObject({ cached: false });
  });
});
