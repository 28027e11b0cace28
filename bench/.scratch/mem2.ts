import fs from 'node:fs';
import path from 'node:path';
import { parseConfig } from '/work/main/server/config.ts';
import { currentBuildDir } from '/work/main/server/read-model/pointer.ts';
import { openSearch } from '/work/main/server/search/index.ts';
import '/work/main/server/main.ts';
function m(): string { const u = process.memoryUsage(); return [u.rss, u.heapUsed, u.heapTotal, u.external, u.arrayBuffers].map((x) => Math.round(x / 1048576)).join(' '); }
async function main(): Promise<void> {
  (globalThis as any).gc(); console.log('modules loaded rss/heapUsed/heapTotal/external/ab', m());
  const dir = (await currentBuildDir(parseConfig().readModelDir))!;
  const pages = new Map<string, any>();
  for (const f of fs.readdirSync(path.join(dir, 'pages'))) { const p = JSON.parse(fs.readFileSync(path.join(dir, 'pages', f), 'utf8')); pages.set(p.path, { title: p.title, url: p.url, city: p.city }); }
  const s = await openSearch(path.join(dir, 'search'), pages);
  (globalThis as any).gc(); console.log('search opened', m());
  await s.close();
  (globalThis as any).gc(); console.log('search closed', m());
}
main();
