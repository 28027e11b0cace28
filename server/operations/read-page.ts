/** read_page — a published page as Markdown, whole or in parts (contract.md, "read_page"). */
import { invalidParam, pageChanged, pageNotFound } from '../errors.ts';
import { chain } from '../chain.ts';
import { pageVersion } from '../../formats/read-model/page-hash.ts';
import { isPartStart } from '../read-model/parts.ts';
import type { Representation } from '../read-model/types.ts';
import { ReadPageParams } from '../schemas/params.ts';
import { PageSchema, SectionSchema } from '../../formats/schemas/resources.ts';
import { defineOperation } from './operation.ts';

export const readPage = defineOperation({
  name: 'read_page',
  path: 'read_page',
  tag: 'contenido',
  access: { kind: 'open', raisedBy: 'content:read' },
  input: ReadPageParams,
  output: { schema: PageSchema, name: 'Page', description: 'La página, o la parte que empieza en `offset`.', parts: { Section: SectionSchema } },
  cacheable: true,
  rest: {
    summary: 'Leer una página en Markdown',
    description: 'Devuelve el texto de una página publicada en Markdown, sin menús ni pie, con la lista de sus secciones. '
      + 'Una página larga llega en partes: `truncated` es true y `next_offset` dice desde dónde seguir (`offset`); '
      + 'las partes unidas son el Markdown completo. Para leer una sección, pase su `offset`. '
      + 'Con cada `offset` mayor que 0, pase también el `version` de la respuesta anterior: si la página se ha publicado de nuevo entretanto, '
      + 'la respuesta es 400 `agentes_page_changed` (vuelva a empezar en `offset` 0) en lugar de un texto que no empalma. 404 si la página no existe.',
  },
  tool: {
    title: 'Leer una página en Markdown',
    description: [
      'Devuelve el texto de una página publicada del sitio en Markdown, sin menús ni pie, y sus secciones (`sections`, cada una con su `offset`).',
      'Úsela con una `url` devuelta por search_pages (también admite la ruta del sitio, /servicios/fontaneria/, o el slug, fontaneria).',
      'Una página larga llega en partes: si `truncated` es true, llame otra vez con `offset` = `next_offset` hasta que `next_offset` sea null; para ir a una sección, pase su `offset`.',
      'Con un `offset` mayor que 0 pase siempre el `version` de la respuesta anterior: si la página ha cambiado, el error lo dice y hay que volver a leerla desde `offset` 0.',
    ].join(' '),
  },
  run: ({ url, offset, version }, { model, resolvePage }) => {
    const page = resolvePage(model, url);
    if (!page) throw pageNotFound();
    if (offset === 0) return asResult(model.partOf(page, 0));
    // An offset counts in the text of one version; in another it would splice two texts.
    if (version !== undefined && version !== pageVersion(page.hash)) throw pageChanged();
    // A later part is checked against the page's text, read from its file when not hot.
    return chain(model.textOf(page), ({ markdown }) => {
      if (offset >= markdown.length) {
        throw invalidParam('offset', `Debe ser menor que ${markdown.length}, la longitud de esta página (\`total_chars\`).`);
      }
      if (!isPartStart(markdown, offset)) {
        throw invalidParam('offset', 'Cae en medio de un carácter: use 0, un `next_offset` o el `offset` de una sección.');
      }
      return asResult(model.partOf(page, offset));
    });
  },
});

function asResult(rep: Representation | Promise<Representation>): { representation: Representation } | Promise<{ representation: Representation }> {
  return rep instanceof Promise ? rep.then((representation) => ({ representation })) : { representation: rep };
}
