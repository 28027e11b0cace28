/**
 * The headless Chromium shipped inside the npm package `@sparticuz/chromium` (a devDependency),
 * for machines without a system browser: `npm ci` brings it from the registry, nothing is
 * downloaded from elsewhere. The package holds Brotli-compressed files: the browser
 * (chrome-headless-shell), the NSS, NSPR and expat libraries it links to (built for Amazon
 * Linux 2023, on glibc 2.34, so they load on any newer glibc), SwiftShader and a font. They are
 * unpacked once per package version into `node_modules/.cache/`, then reused.
 *
 * The browser has no RUNPATH, so it finds the libraries through LD_LIBRARY_PATH: `env` is what
 * its process needs on top of the caller's environment. Beyond those libraries it needs only
 * glibc and libgcc_s, which every system that runs Node has.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { ROOT } from '../../server/config.ts';

export interface PackagedChromium {
  /** The unpacked browser. */
  path: string;
  /** The package's version (its Chromium major). */
  version: string;
  /** Where its own libraries are (LD_LIBRARY_PATH). */
  libDir: string;
  /** Environment its process needs besides the caller's: its libraries and its fonts. */
  env: Record<string, string>;
}

const brotli = promisify(zlib.brotliDecompress);

function packageDir(): string {
  // The package exports only its entry: the folder is the nearest one above it with its package.json.
  for (let dir = path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('@sparticuz/chromium: no package.json above its entry');
  }
}

/** Unpacks the package's browser into `cacheDir` (once per version) and says how to run it. */
export async function packagedChromium(options: { cacheDir?: string } = {}): Promise<PackagedChromium> {
  const pkg = packageDir();
  const { version } = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { version: string };
  const dir = path.join(options.cacheDir ?? path.join(ROOT, 'node_modules', '.cache', 'sparticuz-chromium'), version);
  if (!fs.existsSync(dir)) await unpack(path.join(pkg, 'bin'), dir);
  const libDir = path.join(dir, 'lib');
  const inherited = process.env.LD_LIBRARY_PATH;
  return {
    path: path.join(dir, 'chromium'),
    version,
    libDir,
    env: { LD_LIBRARY_PATH: inherited ? `${libDir}:${inherited}` : libDir, FONTCONFIG_PATH: dir },
  };
}

/**
 * Unpacks into a folder of this process, then renames it into place: test processes (and other
 * checkouts' tests) starting at once never see a half-written browser, and the loser of the race
 * uses the winner's.
 */
async function unpack(bin: string, dir: string): Promise<void> {
  const staging = `${dir}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fsp.mkdir(staging, { recursive: true });
  try {
    await pipeline(
      fs.createReadStream(path.join(bin, 'chromium.br')),
      zlib.createBrotliDecompress(),
      fs.createWriteStream(path.join(staging, 'chromium'), { mode: 0o755 }),
    );
    // al2023: lib/ (NSS, NSPR, expat); fonts: fonts/ and a fonts.conf for Lambda's paths,
    // replaced below; swiftshader: the GL libraries Chromium loads from its own folder.
    for (const archive of ['al2023.tar.br', 'fonts.tar.br', 'swiftshader.tar.br']) {
      await extractTar(await brotli(await fsp.readFile(path.join(bin, archive))), staging);
    }
    await fsp.writeFile(path.join(staging, 'fonts.conf'), fontsConf(dir));
    await fsp.mkdir(path.dirname(dir), { recursive: true });
    await fsp.rename(staging, dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    });
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}

/** fontconfig's configuration: the package's font only, its cache beside it. */
function fontsConf(dir: string): string {
  return `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n`
    + `  <dir>${path.join(dir, 'fonts')}</dir>\n  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`;
}

/**
 * Extracts a POSIX (ustar) archive of plain files and folders, the only entries these archives
 * hold; anything else (links, long-name extensions) is refused rather than half-extracted.
 */
async function extractTar(archive: Buffer, into: string): Promise<void> {
  const field = (header: Buffer, start: number, length: number) => header.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= archive.length;) {
    const header = archive.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const prefix = field(header, 345, 155);
    const name = path.posix.join(prefix, field(header, 0, 100));
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = field(header, 156, 1) || '0';
    const mode = parseInt(field(header, 100, 8).trim() || '644', 8);
    const target = path.resolve(into, name);
    if (!target.startsWith(path.resolve(into) + path.sep)) throw new Error(`tar entry outside the folder: ${name}`);
    if (type === '5') {
      await fsp.mkdir(target, { recursive: true });
    } else if (type === '0') {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.writeFile(target, archive.subarray(at + 512, at + 512 + size), { mode: mode & 0o777 });
    } else {
      throw new Error(`tar entry ${name} of type ${type} is not a file or a folder`);
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
}
