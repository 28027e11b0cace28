import fs from 'node:fs';
import path from 'node:path';
import { parseConfig } from '/work/main/server/config.ts';
import { loadModel } from '/work/main/server/read-model/holder.ts';
import { currentBuildDir } from '/work/main/server/read-model/pointer.ts';
async function main(): Promise<void> {
  const config = parseConfig({ LOG_LEVEL: 'silent' });
  const dir = (await currentBuildDir(config.readModelDir))!;
  const model = await loadModel(config, dir);
  const side = JSON.parse(fs.readFileSync(path.join(dir, 'search/search.json'), 'utf8'));
  const words = side.vocabulary.filter(([w, df]: [string, number]) => w.length >= 4 && df >= 2 && !/\d/.test(w)).sort((a: any, b: any) => b[1] - a[1]).map((x: any) => x[0]).slice(0, Number(process.argv[2] ?? 300));
  const t = performance.now();
  const lat: number[] = [];
  for (const w of words) { const s = performance.now(); await model.search.search({ query: w, city: 'todas', limit: 8 }); lat.push(performance.now() - s); }
  lat.sort((a, b) => a - b);
  console.log(words.length, 'words', (performance.now() - t).toFixed(0), 'ms; p50', lat[lat.length >> 1]!.toFixed(2), 'p99', lat[Math.floor(lat.length * 0.99)]!.toFixed(2), 'rss', (process.memoryUsage().rss / 1048576).toFixed(0), 'vocab', side.vocabulary.length);
  await model.search.close();
}
main();
