/**
 * read_page in parts: Markdown longer than READ_PAGE_MAX_CHARS (UTF-16 code units, what
 * JavaScript and JSON clients count) is served from `offset` in parts of at most that size, each
 * an exact slice of the page's Markdown, so the parts joined are the whole text. A part ends after
 * the last blank line that fits (no paragraph, list item or table row left half-written); it ends
 * before a fenced code block rather than inside it unless the block alone is longer than half a
 * part, in which case the next part goes on with the block.
 *
 * A part may start anywhere in the text but between the two halves of a surrogate pair: every
 * `next_offset` and every section's `offset` is such a start, so a client can also read a page
 * from one of its sections.
 */

export interface Part {
  text: string;
  /** Where the next part starts, or null when this one reaches the end. */
  next: number | null;
}

export interface Section {
  /** The heading's text, without its `#` marks. */
  title: string;
  /** 2 for `##` … 6 for `######` (the page title, `#`, opens the text). */
  level: number;
  /** Where the section starts in the page's Markdown: pass it as `offset`. */
  offset: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^(#{2,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;

/** True where a part may start: within the text, not inside a surrogate pair. */
export function isPartStart(md: string, offset: number): boolean {
  if (offset === 0) return true;
  if (!(offset > 0 && offset < md.length)) return false;
  const code = md.charCodeAt(offset);
  return !(code >= 0xdc00 && code <= 0xdfff && md.charCodeAt(offset - 1) >= 0xd800 && md.charCodeAt(offset - 1) <= 0xdbff);
}

export function partAt(md: string, start: number, maxChars: number): Part {
  if (md.length - start <= maxChars) return { text: start === 0 ? md : md.slice(start), next: null };
  let end = boundaryBefore(md, start, start + maxChars);
  const fence = openFence(md, end);
  if (fence !== null && fence.start > start && fence.start - start >= maxChars / 2) end = fence.start;
  return { text: md.slice(start, end), next: end };
}

/**
 * End of a part starting at `start` and ending by `limit`: just after the last blank line; if
 * that keeps less than half, after the last line break; then after the last space; at worst
 * `limit` itself (never between the two halves of a surrogate pair).
 */
function boundaryBefore(md: string, start: number, limit: number): number {
  const half = start + (limit - start) / 2;
  const paragraph = md.lastIndexOf('\n\n', limit - 2);
  if (paragraph + 2 > half) return paragraph + 2;
  const line = md.lastIndexOf('\n', limit - 1);
  if (line + 1 > half) return line + 1;
  const space = md.lastIndexOf(' ', limit - 1);
  if (space + 1 > half) return space + 1;
  const code = md.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/** The fenced block still open at `end` (scanning from the start of the page), or null. */
function openFence(md: string, end: number): { start: number } | null {
  let open: { start: number; marker: string } | null = null;
  forEachLine(md, end, (line, lineStart) => {
    const m = FENCE.exec(line);
    if (!m) return;
    const marker = m[1]!;
    if (open === null) open = { start: lineStart, marker };
    // A closing fence uses the same character, at least as long, and nothing after it.
    else if (marker[0] === open.marker[0] && marker.length >= open.marker.length && line.trim() === marker) open = null;
  });
  return open;
}

/** The page's headings below its title, outside code blocks, with where each section starts. */
export function sectionsOf(md: string): Section[] {
  const sections: Section[] = [];
  let fence: string | null = null;
  forEachLine(md, md.length, (line, lineStart) => {
    const f = FENCE.exec(line);
    if (f) {
      const marker = f[1]!;
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      return;
    }
    if (fence !== null) return;
    const h = HEADING.exec(line);
    if (h) sections.push({ title: h[2]!, level: h[1]!.length, offset: lineStart });
  });
  return sections;
}

function forEachLine(md: string, end: number, fn: (line: string, lineStart: number) => void): void {
  let lineStart = 0;
  while (lineStart < end) {
    let lineEnd = md.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd > end) lineEnd = end;
    fn(md.slice(lineStart, lineEnd), lineStart);
    lineStart = lineEnd + 1;
  }
}
