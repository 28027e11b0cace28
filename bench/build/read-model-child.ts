/**
 * `node --import tsx bench/build/read-model-child.ts <distDir> <outDir>`: the read-model stage
 * alone on a built site, in its own process (so its peak memory is its own), printing one JSON
 * line: stage timings, total and peak RSS.
 */
import { buildReadModel } from '../../build-scripts/pipeline.ts';

const [distDir, outDir] = process.argv.slice(2);
if (!distDir || !outDir) throw new Error('usage: read-model-child.ts <distDir> <outDir>');
const result = await buildReadModel({ skipAstro: true, distDir, outDir, log: (line) => process.stderr.write(line + '\n') });
process.stdout.write(JSON.stringify({
  totalMs: result.totalMs,
  timings: result.timings,
  peakRssBytes: result.peakRssBytes,
  pages: result.manifest.counts.pages,
}) + '\n');
