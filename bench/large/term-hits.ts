/**
 * `node --expose-gc --import tsx bench/large/term-hits.ts <build>/search [terms…]`: the postings'
 * columnar answers on one build, warm: the open time and what it holds after a GC, then per term
 * hits() with and without a word test and positions() of its best and middle pages (the first
 * call, which reads the words' heads, and the calls after), in milliseconds.
 */
import { performance } from 'node:perf_hooks';
import { openPostingsSearch } from '../../formats/search/postings-search.ts';

const [dir, ...asked] = process.argv.slice(2);
if (!dir) throw new Error('usage: term-hits.ts <build>/search [terms…]');
const terms = asked.length > 0 ? asked : ['fontanero', 'madrid', 'cerrajero', 'presupuesto', 'a'];
const RUNS = 15;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

gc();
const before = process.memoryUsage();
const opened = performance.now();
const search = await openPostingsSearch(dir);
const openMs = performance.now() - opened;
gc();
const after = process.memoryUsage();
const mb = (n: number) => (n / 2 ** 20).toFixed(1);
console.log(`open ${openMs.toFixed(1)} ms; heap +${mb(after.heapUsed - before.heapUsed)} MB, array buffers +${mb(after.arrayBuffers - before.arrayBuffers)} MB, rss ${mb(after.rss)} MB`);

const word = (w: string) => w.length % 2 === 0;
const keep = { word, max: 5 };
const summary = (ms: number[]) => {
  ms.sort((a, b) => a - b);
  return `min ${ms[0]!.toFixed(2)} median ${ms[ms.length >> 1]!.toFixed(2)} max ${ms[ms.length - 1]!.toFixed(2)}`;
};
const timed = (f: () => unknown): number => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
for (const term of terms) {
  let hits = search.hits(term, word);
  const plain: number[] = [];
  const tested: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    plain.push(timed(() => search.hits(term)));
    tested.push(timed(() => { hits = search.hits(term, word); }));
  }
  let best = 0;
  for (let k = 1; k < hits.count; k++) if (hits.scores[k]! > hits.scores[best]!) best = k;
  const pages = [hits.pages[best]!, hits.pages[hits.count >> 1]!];
  const first = timed(() => search.positions(term, pages[0]!, keep));
  const then: number[] = [];
  for (let i = 0; i < RUNS; i++) for (const page of pages) then.push(timed(() => search.positions(term, page, keep)));
  console.log(`${term}: ${hits.count} pages; hits ${summary(plain)}; with a word test ${summary(tested)}; positions first ${first.toFixed(2)}, then ${summary(then)}`);
}
await search.close();
