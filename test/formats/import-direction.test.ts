/**
 * Imports run one way: `build-scripts/` and `server/` import `formats/`; `formats/` imports
 * neither, and neither imports the other. Every module of the three folders is parsed (static,
 * type-only, re-exported and dynamic imports, and module URLs given to workers) and each relative
 * import is placed by the top folder it resolves into.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../../formats/settings.ts';

const FOLDERS = ['build-scripts', 'server', 'formats'] as const;
type Folder = (typeof FOLDERS)[number];

/** What each folder may not import. */
const FORBIDDEN: Record<Folder, readonly Folder[]> = {
  'build-scripts': ['server'],
  server: ['build-scripts'],
  formats: ['build-scripts', 'server'],
};

/** A module URL made from a relative path, as a worker thread is started. */
const MODULE_URL = /new URL\(\s*(['"])(\.{1,2}\/[^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;

/** The relative specifiers `source` imports. */
function specifiersOf(source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  const urls = [...source.matchAll(MODULE_URL)].map((m) => m[2]!);
  return [...importedFiles.map((f) => f.fileName), ...urls].filter((s) => s.startsWith('./') || s.startsWith('../'));
}

/** `from file: specifier` for each import of `file` (its path from ROOT) that crosses a forbidden line. */
function violationsOf(file: string, source: string): string[] {
  const folder = file.split('/')[0] as Folder;
  const out: string[] = [];
  for (const spec of specifiersOf(source)) {
    const target = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec)).split(path.sep)[0] as Folder;
    if (FORBIDDEN[folder].includes(target)) out.push(`${file}: ${spec}`);
  }
  return out;
}

function modulesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|mts|js|mjs)$/.test(name))
    .map((name) => path.join(dir, name).split(path.sep).join('/'));
}

test('no module of build-scripts/, server/ or formats/ imports across the line', () => {
  const files = FOLDERS.flatMap(modulesUnder);
  assert.ok(files.length > 100, `only ${files.length} modules found`);
  const found = files.flatMap((file) => violationsOf(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
  assert.equal(found, [], `imports against the direction formats ← build-scripts, formats ← server:\n${found.join('\n')}`);
});

test('every form of import is seen', () => {
  const source = [
    "import { a } from '../../server/x.ts';",
    "import type { B } from '../../server/y.ts';",
    "export { c } from '../../build-scripts/z.ts';",
    "const d = await import('../../server/w.ts');",
    "const e = new URL('../../build-scripts/tasks/v.ts', import.meta.url);",
    "import { f } from './sibling.ts';",
    "import { g } from 'zod';",
  ].join('\n');
  assert.equal(violationsOf('formats/search/example.ts', source), [
    'formats/search/example.ts: ../../server/x.ts',
    'formats/search/example.ts: ../../server/y.ts',
    'formats/search/example.ts: ../../build-scripts/z.ts',
    'formats/search/example.ts: ../../server/w.ts',
    'formats/search/example.ts: ../../build-scripts/tasks/v.ts',
  ]);
  assert.equal(violationsOf('build-scripts/stages/example.ts', "import { h } from '../../server/config.ts';"), ['build-scripts/stages/example.ts: ../../server/config.ts']);
  assert.equal(violationsOf('server/example.ts', "import { i } from '../build-scripts/pipeline.ts';"), ['server/example.ts: ../build-scripts/pipeline.ts']);
  assert.equal(violationsOf('server/example.ts', "import { j } from '../formats/settings.ts';"), []);
});

test.run();
