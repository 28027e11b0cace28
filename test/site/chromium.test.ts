/**
 * The browser of the page tests on any machine: the order in which it is chosen, and the npm
 * package's browser (the one a machine without Debian's chromium gets) unpacked, linked against
 * its own libraries and rendering a page, whatever this machine has installed.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { packagedChromium } from '../../scripts/lib/chromium-package.ts';
import { findChromium, launchChromium, SYSTEM_CHROMIUM } from '../../scripts/lib/chromium.ts';

const run = promisify(execFile);
const NOWHERE = path.join(os.tmpdir(), 'agentes-no-such-browser');

test('order: CHROMIUM_PATH, then the system browser, then the npm package; a wrong CHROMIUM_PATH fails', async () => {
  const explicit = await findChromium({ env: { CHROMIUM_PATH: process.execPath } });
  assert.equal([explicit.source, explicit.path], ['CHROMIUM_PATH', process.execPath]);
  const system = await findChromium({ env: {}, systemPath: process.execPath });
  assert.equal([system.source, system.path], ['system', process.execPath]);
  const packaged = await findChromium({ env: {}, systemPath: NOWHERE });
  assert.is(packaged.source, 'npm');
  assert.ok(fs.existsSync(packaged.path), packaged.path);
  const bundled = await findChromium({ env: { CHROMIUM_PATH: 'bundled' }, systemPath: process.execPath });
  assert.is(bundled.source, 'npm', 'CHROMIUM_PATH=bundled passes over the system browser');
  const wrong = await findChromium({ env: { CHROMIUM_PATH: NOWHERE } }).catch((e: Error) => e);
  assert.instance(wrong, Error);
  assert.match((wrong as Error).message, `CHROMIUM_PATH is ${NOWHERE}`);
  assert.is(SYSTEM_CHROMIUM, '/usr/bin/chromium');
});

test('a browser that is there but cannot run is passed over, and a CHROMIUM_PATH that cannot run fails clearly', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-broken-browser-'));
  try {
    const notExecutable = path.join(dir, 'chromium');
    fs.writeFileSync(notExecutable, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    const crashes = path.join(dir, 'crashes');
    fs.writeFileSync(crashes, '#!/bin/sh\necho "error while loading shared libraries" >&2\nexit 127\n', { mode: 0o755 });
    for (const broken of [notExecutable, crashes]) {
      const next = await findChromium({ env: {}, systemPath: broken });
      assert.is(next.source, 'npm', `${broken} is passed over`);
      const refused = await findChromium({ env: { CHROMIUM_PATH: broken } }).catch((e: Error) => e);
      assert.instance(refused, Error);
      assert.match((refused as Error).message, `CHROMIUM_PATH is ${broken}, which cannot run`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('Lighthouse with a CHROMIUM_PATH that cannot run: an error for the caller, not a crash of the test process', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-broken-browser-'));
  const browser = path.join(dir, 'chromium');
  fs.writeFileSync(browser, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
  try {
    // In a child: before, chrome-launcher's unhandled spawn error ended the process without totals.
    const script = `const { createLighthouse } = await import(${JSON.stringify(new URL('../../scripts/lib/lighthouse.ts', import.meta.url).href)});
      await createLighthouse().then(() => console.log('started'), (e) => console.log('refused: ' + e.message));`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, CHROMIUM_PATH: browser } });
    assert.match(stdout, `refused: CHROMIUM_PATH is ${browser}, which cannot run`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the npm browser, unpacked twice at once into an empty folder, links only its own libraries, glibc and libgcc', async () => {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-chromium-'));
  try {
    const [a, b] = await Promise.all([packagedChromium({ cacheDir }), packagedChromium({ cacheDir })]);
    assert.is(a!.path, b!.path);
    assert.equal(fs.readdirSync(cacheDir), [a!.version], 'one folder, no staging left behind');
    // ldd (glibc's) resolves what the dynamic loader would, with the browser's own environment.
    const { stdout } = await run('ldd', [a!.path], { env: { ...process.env, ...a!.env } });
    const links = stdout.split('\n').map((l) => l.trim()).filter((l) => l.includes('=>'));
    assert.not.ok(stdout.includes('not found'), stdout);
    for (const line of ['libnss3.so', 'libnspr4.so', 'libexpat.so.1']) {
      const resolved = links.find((l) => l.startsWith(line + ' '));
      assert.ok(resolved?.includes(a!.libDir + '/'), `${line} from the package: ${resolved}`);
    }
    const fromSystem = links.filter((l) => !l.includes(a!.libDir + '/')).map((l) => l.split(' ')[0]!).sort();
    for (const lib of fromSystem) assert.match(lib, /^(?:libc|libm|libdl|libpthread|libgcc_s)\.so\.\d$/, `from the system: ${lib}`);

    const browser = await launchChromium({ binary: { path: a!.path, source: 'npm', env: a!.env } });
    try {
      const page = await browser.newPage();
      await page.setContent('<p id="t" style="font: 20px sans-serif">Fontanería en A Coruña</p><script>document.title = "listo"</script>');
      assert.is(await page.title(), 'listo', 'scripts run');
      const width = await page.locator('#t').evaluate((el) => el.getBoundingClientRect().width);
      assert.ok(width > 100, `the text is laid out with a font (${width} px)`);
    } finally {
      await browser.close();
    }
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
});

test.run();
