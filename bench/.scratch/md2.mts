import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'parse5';
import { fromParse5 } from 'hast-util-from-parse5';
import { parseHtml, hastToMarkdown } from '/work/main/build-scripts/markdown/index.ts';
const dir = '/work/main/dist/client';
const files = fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('index.html')).map((f) => String(f));
const pages = files.map((f) => ({ url: 'http://localhost:4321/' + path.dirname(f) + '/', html: fs.readFileSync(path.join(dir, f), 'utf8') }));
function time(name, fn, reps = 3) {
  let best = Infinity, bestCpu = Infinity;
  for (let r = 0; r < reps; r++) { const c = process.cpuUsage(); const t = performance.now(); for (const p of pages) fn(p); best = Math.min(best, performance.now() - t); const u = process.cpuUsage(c); bestCpu = Math.min(bestCpu, (u.user + u.system) / 1000); }
  console.log(name.padEnd(30), 'wall', (pages.length / best * 1000).toFixed(0), 'pages/s  cpu', (pages.length / bestCpu * 1000).toFixed(0), 'pages/cpu-s');
}
time('rehype-parse', (p) => parseHtml(p.html));
time('parse5+fromParse5 nopos', (p) => fromParse5(parse(p.html, { scriptingEnabled: false })));
time('convert (rehype-parse tree)', (p) => hastToMarkdown(parseHtml(p.html), { baseUrl: p.url }));
time('convert (nopos tree)', (p) => hastToMarkdown(fromParse5(parse(p.html, { scriptingEnabled: false })), { baseUrl: p.url }));
