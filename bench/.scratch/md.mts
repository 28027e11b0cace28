import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'parse5';
import { fromParse5 } from 'hast-util-from-parse5';
import { parseHtml, hastToMarkdown } from '/work/main/build-scripts/markdown/index.ts';
const dir = '/work/main/dist/client';
const files = fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('index.html')).map((f) => String(f));
const pages = files.map((f) => ({ url: 'http://localhost:4321/' + path.dirname(f) + '/', html: fs.readFileSync(path.join(dir, f), 'utf8') }));
const bytes = pages.reduce((a, p) => a + p.html.length, 0);
console.log(pages.length, 'pages', (bytes / pages.length / 1024).toFixed(1), 'KB avg');
function time(name, fn, reps = 3) {
  let best = Infinity;
  for (let r = 0; r < reps; r++) { const t = performance.now(); for (const p of pages) fn(p); best = Math.min(best, performance.now() - t); }
  console.log(name.padEnd(30), (best / pages.length).toFixed(3), 'ms/page', (pages.length / best * 1000).toFixed(0), 'pages/s');
}
time('rehype-parse', (p) => parseHtml(p.html));
time('parse5 nopos', (p) => parse(p.html, { scriptingEnabled: false }));
time('parse5 pos', (p) => parse(p.html, { scriptingEnabled: false, sourceCodeLocationInfo: true }));
time('parse5+fromParse5 nopos', (p) => fromParse5(parse(p.html, { scriptingEnabled: false })));
time('convert (rehype-parse tree)', (p) => hastToMarkdown(parseHtml(p.html), { baseUrl: p.url }));
time('convert (nopos tree)', (p) => hastToMarkdown(fromParse5(parse(p.html, { scriptingEnabled: false })), { baseUrl: p.url }));
