import fs from 'node:fs';
import zlib from 'node:zlib';
const html = fs.readFileSync('/work/main/dist/client/servicios/fontaneria/madrid/index.html');
const t = (name, fn, n = 40) => { const c = process.cpuUsage(); let out; for (let i = 0; i < n; i++) out = fn(); const u = process.cpuUsage(c); console.log(name.padEnd(22), ((u.user + u.system) / 1000 / n).toFixed(2), 'ms', out.length, 'bytes of', html.length); };
for (const q of [5, 6, 7, 9, 10, 11]) t('brotli q' + q, () => zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length } }));
t('brotli q10 lgwin17', () => zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 10, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length, [zlib.constants.BROTLI_PARAM_LGWIN]: 17 } }));
for (const l of [6, 9]) t('gzip ' + l, () => zlib.gzipSync(html, { level: l }));
for (const q of [9, 10, 11]) t('brotli q' + q + ' lgwin14', () => zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length, [zlib.constants.BROTLI_PARAM_LGWIN]: 14 } }));
for (const q of [9]) t('brotli q' + q + ' lgwin16', () => zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length, [zlib.constants.BROTLI_PARAM_LGWIN]: 16 } }));
