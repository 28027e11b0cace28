/** get_company_info — company facts, one section or all (contract.md, "get_company_info"). */
import { GetCompanyInfoParams } from '../schemas/params.ts';
import { CitySlugSchema } from '../../formats/schemas/cities.ts';
import {
  CityEntrySchema, CompanyInfoSchema, COMPANY_SECTION_FIELDS, ServiceEntrySchema, ServiceModelSchema,
} from '../../formats/schemas/resources.ts';
import { defineOperation } from './operation.ts';

const sectionList = Object.entries(COMPANY_SECTION_FIELDS)
  .map(([section, fields]) => `\`${section}\`: ${fields.map((f) => `\`${f}\``).join(', ')}`)
  .join('; ');

export const getCompanyInfo = defineOperation({
  name: 'get_company_info',
  path: 'get_company_info',
  tag: 'contenido',
  access: { kind: 'open', raisedBy: 'content:read' },
  input: GetCompanyInfoParams,
  output: {
    schema: CompanyInfoSchema,
    name: 'CompanyInfo',
    description: 'Los datos de la sección pedida.',
    parts: { ServiceModel: ServiceModelSchema, ServiceEntry: ServiceEntrySchema, CityEntry: CityEntrySchema, CitySlug: CitySlugSchema },
  },
  cacheable: true,
  rest: {
    summary: 'Datos de la empresa',
    description: 'Marca, razón social, NIF, dirección, contacto, horario, modelo de servicio (quién realiza, presupuesta, factura y garantiza el trabajo), '
      + 'impuestos, precios orientativos y la lista de servicios y ciudades con sus URL. '
      + `Solo se devuelve la parte pedida en \`section\`; \`all\` lo devuelve todo. Campos por sección: ${sectionList}.`,
  },
  tool: {
    title: 'Datos de la empresa',
    description: [
      'Datos de la empresa: marca, razón social, NIF, dirección, teléfono, correo y horario; cómo funciona el servicio (quién hace, presupuesta, factura y garantiza el trabajo; no se contrata ni paga nada en línea);',
      'impuestos, precios orientativos, y los servicios y ciudades con su URL.',
      'Úsela para preguntas de contacto, precios, IVA, garantía o modelo de servicio; `section` limita la respuesta a una parte.',
    ].join(' '),
  },
  // Every section's body was serialized when the build was loaded.
  run: ({ section }, { model }) => ({ representation: model.company[section] }),
});
