/** The icon sprite: one symbol per service, and every icon a built page uses is in it. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'glob';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../../server/config.ts';
import { builtReadModel, builtSiteDir } from '../helpers/built-site.ts';

const sprite = await fs.readFile(path.join(ROOT, 'public', 'iconos.svg'), 'utf8');
const symbols = new Set([...sprite.matchAll(/<symbol id="([^"]+)"/g)].map((m) => m[1]!));

test('every service has its symbol in public/iconos.svg, and its page shows it', async () => {
  await builtReadModel();
  const services: { id: string }[] = JSON.parse(await fs.readFile(path.join(ROOT, 'src', 'content', 'services.json'), 'utf8'));
  for (const { id } of services) {
    assert.ok(symbols.has(id), `no symbol for ${id}`);
    const html = await fs.readFile(path.join(builtSiteDir(), 'servicios', id, 'index.html'), 'utf8');
    assert.ok(html.includes(`<use href="/iconos.svg#${id}">`), `${id}: its page does not show its icon`);
  }
});

test('every icon the built pages use is a symbol of the sprite', async () => {
  await builtReadModel();
  const used = new Set<string>();
  for (const file of await glob('**/*.html', { cwd: builtSiteDir() })) {
    const html = await fs.readFile(path.join(builtSiteDir(), file), 'utf8');
    for (const m of html.matchAll(/href="\/iconos\.svg#([^"]+)"/g)) used.add(m[1]!);
  }
  assert.ok(used.size >= 19, `${used.size} icons used`);
  for (const id of used) assert.ok(symbols.has(id), `#${id} is not in the sprite`);
});

test.run();
