/** llms.txt on a site far larger than the sample: still an index a model reads whole. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../../server/config.ts';
import { buildLlmsTxt, LLMS_TXT_MAX_CHARS, type LlmsModel } from '../../../server/discovery/llms-txt.ts';
import type { LoadedPage, Representation } from '../../../server/read-model/types.ts';

const config = parseConfig({ SITE_URL: 'https://www.example.es' });
const rep = (value: object): Representation => ({ body: Buffer.from(JSON.stringify(value)), etag: '"x"', gzip: null, br: null, encode: null });
const page = (kind: LoadedPage['kind'], i: number) => ({
  kind, title: `Página ${kind} ${i}`, url: `${config.siteUrl}/p/${kind}/${i}/`, path: `/p/${kind}/${i}/`,
  description: 'Una descripción bastante larga de la página, con detalles que no caben en un índice compacto, y más detalles todavía, y una frase más para pasar del límite.',
}) as unknown as LoadedPage;

test('5,000 pages per service and city: within the budget, descriptions cut, the rest by the sitemap', () => {
  const company = rep({ brand: 'Marca', website: config.siteUrl });
  const model = {
    company: { all: company, contact: company, service_model: company, coverage: company, services: company },
    pages: [page('home', 0), ...Array.from({ length: 20 }, (_, i) => page('service', i)), ...Array.from({ length: 5000 }, (_, i) => page('service-city', i))],
  } as unknown as LlmsModel;
  const text = buildLlmsTxt(config, model);
  assert.ok(text.length <= LLMS_TXT_MAX_CHARS, `${text.length} characters`);
  const services = text.slice(text.indexOf('## Servicios'), text.indexOf('## Optional'));
  const described = services.split('\n').filter((l) => l.startsWith('- '));
  assert.is(described.length, 20);
  for (const line of described) {
    const description = line.slice(line.indexOf('): ') + 3);
    assert.ok(description.endsWith('…') && description.length <= 120, description);
  }
  const optional = text.slice(text.indexOf('## Optional')).split('\n').filter((l) => l.startsWith('- '));
  const listed = optional.length - 1;
  assert.ok(listed > 300, `${listed} listed`);
  assert.is(optional.at(-1), `- [Mapa del sitio](${config.siteUrl}/sitemap-index.xml): las ${5000 - listed} páginas restantes de servicios por ciudad; también search_pages con \`city\``);
});

test.run();
