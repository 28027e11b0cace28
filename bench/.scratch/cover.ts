import fs from 'node:fs';
import path from 'node:path';
import { parseConfig } from '/work/main/server/config.ts';
import { currentBuildDir } from '/work/main/server/read-model/pointer.ts';
import { commonQueries } from '/work/main/bench/micro/queries.ts';
import { words, STOP_WORDS } from '/work/main/server/search/text.ts';
import { familyStems } from '/work/main/server/search/vocabulary.ts';
async function main(): Promise<void> {
  const dir = (await currentBuildDir(parseConfig().readModelDir))!;
  const side = JSON.parse(fs.readFileSync(path.join(dir, 'search/search.json'), 'utf8'));
  const titles = new Map<string, number>();
  for (const f of fs.readdirSync(path.join(dir, 'pages'))) { const p = JSON.parse(fs.readFileSync(path.join(dir, 'pages', f), 'utf8')); for (const w of new Set(words(p.title + ' ' + p.description))) titles.set(w, (titles.get(w) ?? 0) + 1); }
  const key = (w: string) => [...familyStems(w)].sort().join(',');
  const qwords = new Set(commonQueries(200).flatMap((q) => words(q.query)).filter((w) => !STOP_WORDS.has(w)));
  for (const K of [100, 300, 600]) {
    const top = side.vocabulary.filter(([w]: [string]) => !STOP_WORDS.has(w) && w.length > 2).sort((a: any, b: any) => b[1] - a[1]).slice(0, K).map((x: any) => x[0]);
    const tw = [...titles].filter(([w]) => !STOP_WORDS.has(w) && w.length > 2).sort((a, b) => b[1] - a[1]).slice(0, K).map(([w]) => w);
    const fam = (ws: string[]) => new Set(ws.map(key));
    const ft = fam(top), fw = fam(tw);
    const cov = (f: Set<string>) => [...qwords].filter((w) => f.has(key(w))).length;
    console.log(K, 'query words', qwords.size, 'covered by top-df', cov(ft), 'by title+desc words', cov(fw), 'title words total', titles.size);
  }
}
main();
