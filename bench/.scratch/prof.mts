import fs from 'node:fs';
import path from 'node:path';
import { htmlToMarkdown } from '/work/main/build-scripts/markdown/index.ts';
const dir = '/work/main/dist/client';
const files = fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('index.html')).map((f) => String(f));
const pages = files.map((f) => ({ url: 'http://localhost:4321/' + path.dirname(f) + '/', html: fs.readFileSync(path.join(dir, f), 'utf8') }));
for (let r = 0; r < 4; r++) for (const p of pages) htmlToMarkdown(p.html, { baseUrl: p.url });
