/**
 * read_page's size cap: Markdown longer than READ_PAGE_MAX_CHARS (UTF-16 code units, what
 * JavaScript and JSON clients count) is cut at the last paragraph boundary (a blank line) that
 * fits, so no paragraph, list item or table row is left half-written. A cut never leaves a fenced
 * code block open: it moves before the fence, or, when that would drop more than half the cap,
 * closes the fence after the last line that fits.
 */
export interface Cut {
  text: string;
  truncated: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function truncateMarkdown(markdown: string, maxChars: number): Cut {
  if (markdown.length <= maxChars) return { text: markdown, truncated: false };
  const end = boundaryBefore(markdown, maxChars);
  const fence = openFence(markdown, end);
  if (fence === null) return { text: markdown.slice(0, end).trimEnd(), truncated: true };
  const before = markdown.slice(0, fence.start).trimEnd();
  if (before.length >= maxChars / 2) return { text: before, truncated: true };
  // A code block longer than half the cap: keep its start and close the fence.
  const closing = '\n' + fence.marker;
  return { text: markdown.slice(0, boundaryBefore(markdown, maxChars - closing.length)).trimEnd() + closing, truncated: true };
}

/**
 * End of the kept text: the last blank line at or before `max`; if that would keep less than
 * half, the last line break; then the last space; at worst `max` itself (never between the two
 * halves of a surrogate pair).
 */
function boundaryBefore(md: string, max: number): number {
  const half = max / 2;
  const paragraph = md.lastIndexOf('\n\n', max);
  if (paragraph >= half) return paragraph;
  const line = md.lastIndexOf('\n', max);
  if (line >= half) return line;
  const space = md.lastIndexOf(' ', max);
  if (space >= half) return space;
  const code = md.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
}

/** The fenced block still open at `end`, or null. */
function openFence(md: string, end: number): { start: number; marker: string } | null {
  let open: { start: number; marker: string } | null = null;
  let lineStart = 0;
  while (lineStart < end) {
    let lineEnd = md.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd > end) lineEnd = end;
    const m = FENCE.exec(md.slice(lineStart, lineEnd));
    if (m) {
      const marker = m[1]!;
      if (open === null) open = { start: lineStart, marker };
      // A closing fence uses the same character, at least as long, and nothing after it.
      else if (marker[0] === open.marker[0] && marker.length >= open.marker.length
        && md.slice(lineStart, lineEnd).trim() === marker) open = null;
    }
    lineStart = lineEnd + 1;
  }
  return open;
}
