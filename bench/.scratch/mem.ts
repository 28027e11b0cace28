import fs from 'node:fs';
import { parseConfig } from '/work/main/server/config.ts';
import { openModel } from '/work/main/server/read-model/holder.ts';
import { createLogger } from '/work/main/server/log.ts';
function m(): string { const u = process.memoryUsage(); return [u.rss, u.heapUsed, u.heapTotal, u.external, u.arrayBuffers].map((x) => Math.round(x / 1048576)).join(' '); }
async function main(): Promise<void> {
  console.log('start rss/heapUsed/heapTotal/external/ab', m());
  const t = performance.now();
  const model = await openModel(parseConfig({ LOG_LEVEL: 'silent' }), createLogger('silent'), { watch: false });
  console.log('loaded', Math.round(performance.now() - t), 'ms', m());
  (globalThis as { gc?: () => void }).gc?.();
  console.log('after gc', m());
  console.log(fs.readFileSync('/proc/self/status', 'utf8').match(/VmHWM.*|VmRSS.*/g));
  await model.close();
}
main();
