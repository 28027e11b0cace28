/**
 * A page's Markdown as the plain text that is indexed and that excerpts are cut from: one line,
 * single spaces, no Markdown syntax, no link targets or images. Blocks (headings, paragraphs,
 * list items, table cells) are separated so their words never run together, with a full stop
 * after a block that ends without punctuation, so an excerpt spanning a heading still reads as
 * sentences.
 *
 * Line-based rather than a micromark parse: the read model's Markdown is our own writer's
 * (build-scripts/markdown/stringify-options.ts: ATX headings, `-` bullets, `_em_`, `**strong**`,
 * fenced code, GFM tables), and a full micromark parse with GFM costs far more per page than
 * these line rules.
 */

const ENDS_SENTENCE = /[.!?…:;]$/;
/** Invisible characters that would split or glue words differently from what readers see. */
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(?:\s+|$)(.*?)(?:\s+#+)?\s*$/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const LIST_MARKER = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;
const QUOTE = /^\s*(?:>\s?)+/;
const RULE = /^ {0,3}(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$/;

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Escaped punctuation is set aside first, so `\\<div>` or `\\*` is never read as syntax. */
const ESCAPED = /\\([!-/:-@[-`{-~])/g;
const HELD = /\uE000(\d+)\uE001/g;

type Rewrite = readonly [needs: readonly string[], pattern: RegExp, to: (match: string, ...groups: string[]) => string];

/** The match → its first group (which every pattern using this always captures), or nothing. */
const firstGroup = (_: string, group: string) => group;
const nothing = () => '';

/**
 * Inline syntax → its text, in this order: escapes set aside, code spans, images before links,
 * autolinks and tags, emphasis, entities, escapes put back. Each rewrite names the characters its
 * pattern cannot match without, and is skipped when the text holds none of them: most blocks are
 * plain sentences, and scanning each of them fifteen times would be most of the search stage's
 * own CPU.
 */
export const REWRITES: readonly Rewrite[] = [
  [['\\'], ESCAPED, (_, c) => `\uE000${c!.charCodeAt(0)}\uE001`],
  [['`'], /`+([^`]*)`+/g, firstGroup],
  [['!['], /!\[[^\]]*\]\([^)]*\)/g, nothing],
  [['!['], /!\[[^\]]*\]\[[^\]]*\]/g, nothing],
  [['['], /\[([^\]]*)\]\((?:[^()\s]|\([^)]*\))*(?:\s+"[^"]*")?\)/g, firstGroup],
  [['['], /\[([^\]]*)\]\[[^\]]*\]/g, firstGroup],
  [['<'], /<((?:https?|mailto):[^>\s]+|[^@>\s]+@[^>\s]+)>/g, firstGroup],
  [['<'], /<\/?[A-Za-z][^>]*>/g, nothing],
  [['*', '_', '~'], /(\*\*|__|~~)/g, nothing],
  [['*', '_'], /(^|[^\p{L}\p{N}])[*_]+(?=\S)/gu, firstGroup],
  [['*', '_'], /(\S)[*_]+(?=$|[^\p{L}\p{N}])/gu, firstGroup],
  [['&'], /&(amp|lt|gt|quot|apos|nbsp);/g, (_, e) => ENTITIES[e!]!],
  [['&'], /&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d))],
  [['&'], /&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h!, 16))],
  [['\uE000'], HELD, (_, code) => String.fromCharCode(Number(code))],
];

export function inline(text: string): string {
  let s = text;
  for (const [needs, pattern, to] of REWRITES) {
    if (!needs.some((c) => s.includes(c))) continue;
    s = s.replace(pattern, to);
  }
  return s;
}

/** Splits a table row on unescaped pipes. */
function cells(row: string): string[] {
  const inner = row.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.replace(/\\\|/g, '|'));
}

/** Plain text of a Markdown document. */
export function markdownToText(markdown: string): string {
  const out: string[] = [];
  /** The block being collected (paragraph or list item lines); ended by `flush`. */
  let block: string[] = [];
  let closeWithStop = false;
  const flush = (): void => {
    if (block.length === 0) return;
    let text = inline(block.join(' ')).trim();
    if (text !== '' && closeWithStop && !ENDS_SENTENCE.test(text)) text += '.';
    if (text !== '') out.push(text);
    block = [];
    closeWithStop = false;
  };
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const fence = FENCE.exec(raw);
    if (fence) {
      flush();
      const close = fence[1]!;
      for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(close); i++) out.push(lines[i]!);
      continue;
    }
    const line = raw.replace(QUOTE, '');
    if (line.trim() === '' || RULE.test(line)) { flush(); continue; }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      block = [heading[1]!];
      closeWithStop = true;
      flush();
      continue;
    }
    if (line.trimStart().startsWith('|')) {
      flush();
      if (TABLE_DELIMITER.test(line)) continue;
      for (const cell of cells(line)) { block = [cell]; closeWithStop = true; flush(); }
      continue;
    }
    const item = LIST_MARKER.exec(line);
    if (item) {
      flush();
      block = [line.slice(item[0].length)];
      closeWithStop = true;
      continue;
    }
    block.push(line.trim());
  }
  flush();
  return out.join(' ').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

const LINK_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+\[[^\]]*\]\([^)]*\)\s*[.,;]?\s*$/;

/**
 * The Markdown without its lists of links ("Guías de fontanería", "Más servicios cerca de ti"):
 * list items that are one link and nothing else, and the heading of a section that held only
 * such lists. They are navigation, not what the page says: indexed, they make every page
 * that links to a topic match it and put link titles in excerpts.
 */
export function withoutLinkLists(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let heading = -1;
  let sectionText = false;
  let sectionLinks = false;
  const endSection = () => {
    if (heading >= 0 && sectionLinks && !sectionText) out.splice(heading);
    heading = -1;
    sectionText = false;
    sectionLinks = false;
  };
  for (const line of lines) {
    if (HEADING.test(line)) {
      endSection();
      heading = out.length;
      out.push(line);
      continue;
    }
    if (LINK_ITEM.test(line)) { sectionLinks = true; continue; }
    if (line.trim() !== '') sectionText = true;
    out.push(line);
  }
  endSection();
  return out.join('\n');
}

/** The text of a Markdown document's headings, one line (for field weights: a heading match counts more). */
export function headingText(markdown: string): string {
  const out: string[] = [];
  for (const line of markdown.split('\n')) {
    const h = HEADING.exec(line);
    if (h) out.push(inline(h[1]!));
  }
  return out.join(' ');
}
