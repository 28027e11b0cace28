/** The page URL each conversion resolves against, carried on the file so one processor serves all pages. */
export function baseUrlOf(file: { data: Record<string, unknown> }): URL {
  const base = file.data.baseUrl;
  if (!(base instanceof URL)) throw new Error('htmlToMarkdown needs a baseUrl');
  return base;
}
