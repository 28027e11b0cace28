import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
const dir = '/work/main/dist/client';
const files = fs.readdirSync(dir, { recursive: true }).filter((f) => /\.(html|css|js|xml|json|svg)$/.test(f)).map((f) => fs.readFileSync(path.join(dir, f))).filter((b) => b.length >= 1024);
const run = (q, sized) => { const c = process.cpuUsage(); let bytes = 0; for (const b of files) bytes += zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length, ...(sized ? { [zlib.constants.BROTLI_PARAM_LGWIN]: Math.max(10, Math.min(24, Math.ceil(Math.log2(b.length + 1)))) } : {}) } }).length; const u = process.cpuUsage(c); console.log('q' + q, sized ? 'sized' : 'default', files.length, 'files', (bytes / 1024).toFixed(0), 'KB', ((u.user + u.system) / 1000).toFixed(0), 'ms cpu'); };
run(10, false); run(9, true); run(10, true); run(11, true);
