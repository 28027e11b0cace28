/** read_page — a published page as Markdown (contract.md, "read_page"). */
import { pageNotFound } from '../errors.ts';
import { ReadPageParams } from '../schemas/params.ts';
import { PageSchema } from '../schemas/resources.ts';
import { defineOperation } from './operation.ts';

export const readPage = defineOperation({
  name: 'read_page',
  path: 'read_page',
  tag: 'contenido',
  access: { kind: 'open', raisedBy: 'content:read' },
  input: ReadPageParams,
  output: { schema: PageSchema, name: 'Page', description: 'La página.' },
  cacheable: true,
  rest: {
    summary: 'Leer una página en Markdown',
    description: 'Devuelve el texto completo de una página publicada en Markdown, sin menús ni pie. '
      + '`truncated` es true cuando el texto se ha cortado. 404 si la página no existe.',
  },
  tool: {
    title: 'Leer una página en Markdown',
    description: [
      'Devuelve el texto completo de una página publicada del sitio en Markdown, sin menús ni pie.',
      'Úsela con una `url` devuelta por search_pages (también admite la ruta del sitio, /servicios/fontaneria/, o el slug, fontaneria).',
      '`truncated: true` indica que el texto se ha cortado.',
    ].join(' '),
  },
  run: ({ url }, { model, resolvePage }) => {
    const page = resolvePage(model, url);
    if (!page) throw pageNotFound();
    return { representation: page };
  },
});
