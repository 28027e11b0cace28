/**
 * A build shares the published build's files: a site file Astro wrote as that build holds it is
 * linked from it with its compressed siblings, an edited one is written afresh, the search's
 * real-words filters are linked; nothing is shared from a build of other code or by a full build,
 * and the site is byte for byte a full build's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildReadModel, type BuildResult } from '../../../build-scripts/build.ts';
import { CODE_VERSION_FILE } from '../../../build-scripts/cache/previous-build.ts';
import { SPANISH_WORDS_FILE } from '../../../formats/search/index-file.ts';
import { basePages, createFixtureSite, SITE_URL, type FixtureSite } from '../fixture-site.ts';
import { siteFiles } from '../../helpers/build-identity.ts';

const build = (site: FixtureSite, outDir: string, full = false, log: (line: string) => void = () => {}): Promise<BuildResult> =>
  buildReadModel({ distDir: site.distDir, outDir, contentDir: site.contentDir, siteUrl: SITE_URL, skipAstro: true, log, full });
const siblingsLine = (lines: string[]) => lines.find((l) => /✓ site/.test(l))?.replace(/^.* ms\s+/, '');

const inode = (result: BuildResult, file: string) => fs.statSync(path.join(result.buildDir, 'site', file)).ino;
const filterInode = (result: BuildResult) => fs.statSync(path.join(result.buildDir, 'search', SPANISH_WORDS_FILE)).ino;

test('unchanged files are linked from the published build, edited ones written, as a full build has them', async () => {
  const site = await createFixtureSite();
  try {
    const first = await build(site, site.outDir);
    const pages = basePages();
    await site.writePage('/guias/fuga/', { ...pages['/guias/fuga/']!, body: `<p>${'Selle la junta del tragaluz. '.repeat(40)}</p>` });
    const lines: string[] = [];
    const second = await build(site, site.outDir, false, (l) => lines.push(l));
    const sharedLine = siblingsLine(lines);

    const unchanged = 'servicios/fontaneria/madrid/index.html';
    for (const file of [unchanged, `${unchanged}.gz`, `${unchanged}.br`]) {
      assert.is(inode(second, file), inode(first, file), `${file}: linked from the published build`);
    }
    assert.is(filterInode(second), filterInode(first), 'the real-words filters: linked');
    assert.is.not(inode(second, 'guias/fuga/index.html'), inode(first, 'guias/fuga/index.html'), 'the edited page: written afresh');
    assert.ok(fs.existsSync(path.join(second.buildDir, 'site', 'guias/fuga/index.html.br')), 'with its siblings');
    lines.length = 0;
    const full = await build(site, path.join(site.root, 'full'), true, (l) => lines.push(l));
    assert.is(sharedLine, siblingsLine(lines), 'files and siblings counted as a full build counts them');
    assert.equal(siteFiles(second.buildDir), siteFiles(full.buildDir), 'the same site files and siblings, byte for byte');

    // The published build says it was made by other code: nothing is shared from it.
    fs.writeFileSync(path.join(second.buildDir, CODE_VERSION_FILE), 'other\n');
    const third = await build(site, site.outDir);
    assert.is.not(inode(third, unchanged), inode(second, unchanged), 'other code: written afresh');
    assert.is.not(filterInode(third), filterInode(second), 'other code: filters made afresh');
    const fourth = await build(site, site.outDir, true);
    assert.is.not(inode(fourth, unchanged), inode(third, unchanged), 'a full build shares nothing');
    assert.equal(siteFiles(fourth.buildDir), siteFiles(full.buildDir), 'and holds the same files');
  } finally {
    await site.cleanup();
  }
});

test.run();
