/**
 * The questions a guide answers in its "Preguntas frecuentes" section, read from the guide's
 * rendered HTML (so the FAQPage says exactly what the page shows): each `<h3>` of that section
 * with the text of the blocks after it, up to the next heading.
 */
import type { Element } from 'hast';
import { toString } from 'hast-util-to-string';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import type { Faq } from './copy.ts';

const SECTION = /^preguntas frecuentes$/i;
const parser = unified().use(rehypeParse, { fragment: true });
const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

export function guideFaqs(html: string): Faq[] {
  const blocks = parser.parse(html).children.filter((n): n is Element => n.type === 'element');
  const start = blocks.findIndex((el) => el.tagName === 'h2' && SECTION.test(collapse(toString(el))));
  if (start < 0) return [];
  const faqs: Faq[] = [];
  for (const el of blocks.slice(start + 1)) {
    if (el.tagName === 'h2') break;
    if (el.tagName === 'h3') faqs.push({ q: collapse(toString(el)), a: '' });
    else if (faqs.length > 0) {
      const last = faqs[faqs.length - 1]!;
      last.a = collapse(`${last.a} ${toString(el)}`);
    }
  }
  return faqs.filter((f) => f.a !== '');
}
