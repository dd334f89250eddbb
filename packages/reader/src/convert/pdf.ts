/** Text of a pdf, one "--- Page N ---" marker per page; pdf.js runs with script evaluation disabled. */
export async function pdfToText(bytes: Buffer): Promise<string> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes), {
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: true,
  });
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return text.map((page, i) => `--- Page ${i + 1} ---\n${page}`).join('\n');
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}
