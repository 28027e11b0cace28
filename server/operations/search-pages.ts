/** search_pages — ranked published pages with excerpts (contract.md, "search_pages"). */
import { SearchPagesParams } from '../schemas/params.ts';
import { SearchResponseSchema, SearchResultSchema } from '../../formats/schemas/resources.ts';
import { defineOperation } from './operation.ts';

export const searchPages = defineOperation({
  name: 'search_pages',
  path: 'search_pages',
  tag: 'contenido',
  access: { kind: 'open', raisedBy: 'content:read' },
  input: SearchPagesParams,
  output: {
    schema: SearchResponseSchema,
    name: 'SearchResponse',
    description: 'Resultados de esta página.',
    parts: { SearchResult: SearchResultSchema },
  },
  cacheable: true,
  rest: {
    summary: 'Buscar páginas publicadas',
    description: 'Busca en las páginas publicadas por servicio, problema, pregunta sobre el servicio o ciudad y devuelve las URL más relevantes con un extracto; '
      + 'si el sitio no ofrece lo que se busca, 0 resultados. '
      + 'Es el punto de entrada normal: pase después la `url` de un resultado a `read_page`. '
      + 'Para la página siguiente, repita la búsqueda con `cursor` = `next_cursor`.',
  },
  tool: {
    title: 'Buscar páginas del sitio',
    description: [
      'Busca en las páginas publicadas del sitio (servicios del hogar, ciudades y guías de problemas) y devuelve las URL más relevantes con un extracto.',
      'Úsela primero, con lo que pide la persona tal como lo dice: un servicio, un problema ("fuga de agua", "no cierra la puerta"), una pregunta sobre el servicio o un servicio y una ciudad;',
      'si el usuario nombra una de las 21 ciudades, pásela en `city`: primero salen las páginas de esa ciudad y después las que valen para todas (guías, páginas generales).',
      'Si el sitio no ofrece lo que se busca, devuelve 0 resultados: dígaselo a la persona en lugar de ofrecer otra cosa.',
      'Después lea la `url` del resultado que interese con read_page. Si `next_cursor` no es null, repita la búsqueda con `cursor` para la página siguiente.',
    ].join(' '),
  },
  // The engine of the model current when the call started; it hands out the same frozen object
  // for a repeated request, so the REST answer is serialized once.
  run: (input, { model }) => {
    const response = model.search.search(input);
    return response instanceof Promise ? response.then((value) => ({ value })) : { value: response };
  },
});
