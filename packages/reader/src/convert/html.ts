/** Markdown of an HTML page (scripts and styles dropped by the converter), loaded lazily. */
export async function htmlToText(html: string): Promise<string> {
  const { NodeHtmlMarkdown } = await import('node-html-markdown');
  return NodeHtmlMarkdown.translate(html, { ignore: ['script', 'style', 'noscript', 'iframe', 'object', 'embed'] });
}
