/**
 * GET /llms.txt and /llms-full.txt (llmstxt.org). Both come from the read model of the current
 * build, so they follow the published pages:
 *
 * - llms.txt: a compact index a model can read whole (at most LLMS_TXT_MAX_CHARS): `# <brand>`,
 *   a `>` summary, a few lines on how to read the site, then `##` sections of
 *   `- [title](url): description` links, descriptions cut short. Links are the canonical page
 *   URLs: every HTML page also answers `Accept: text/markdown` with its Markdown, and `read_page`
 *   returns the same text as JSON. Pages of one service in one city are many and alike; they go
 *   under `## Optional` (the llmstxt.org section a reader may skip), title and link only, as many
 *   as fit, then a link to the sitemap for the rest.
 * - llms-full.txt: the full Markdown of the key pages (home, information, services, cities,
 *   guides), one after another.
 */
import type { Config } from '../config.ts';
import type { LoadedModel, LoadedPage } from '../read-model/types.ts';
import { FILES_AT_ONCE, mapLimit } from '../read-model/file-pressure.ts';
import type { CompanyInfo } from '../../formats/schemas/resources.ts';
import { links } from './links.ts';
import { operationPath } from '../operations/index.ts';
import { perWindow } from './text.ts';

export type LlmsConfig = Pick<Config, 'siteUrl' | 'baseUrl' | 'rateLimit'>;
export type LlmsModel = Pick<LoadedModel, 'pages' | 'company'>;

type Kind = LoadedPage['kind'];

const SECTIONS: { kind: Kind; title: string }[] = [
  { kind: 'home', title: 'Inicio' },
  { kind: 'info', title: 'Empresa y funcionamiento' },
  { kind: 'service', title: 'Servicios' },
  { kind: 'city', title: 'Ciudades' },
  { kind: 'guide', title: 'Guías de averías' },
];
const KEY_KINDS = new Set<Kind>(SECTIONS.map((s) => s.kind));

function company(model: LlmsModel): CompanyInfo {
  return JSON.parse(model.company.all.body.toString('utf8')) as CompanyInfo;
}

/** One line, no Markdown link syntax breakers. */
const inline = (s: string) => s.replace(/\s+/g, ' ').replace(/([[\]])/g, '\\$1').trim();

/** llms.txt stays an index a model can read in one go. */
export const LLMS_TXT_MAX_CHARS = 50_000;
const DESCRIPTION_MAX_CHARS = 120;

/** A description cut at a word before `DESCRIPTION_MAX_CHARS`. */
function short(text: string): string {
  const s = inline(text);
  if (s.length <= DESCRIPTION_MAX_CHARS) return s;
  const cut = s.lastIndexOf(' ', DESCRIPTION_MAX_CHARS - 1);
  return s.slice(0, cut > 0 ? cut : DESCRIPTION_MAX_CHARS - 1).replace(/[\s,;:.]+$/, '') + '…';
}

const linkLine = (p: LoadedPage) => `- [${inline(p.title)}](${p.url})${p.description ? `: ${short(p.description)}` : ''}`;
const bareLine = (p: LoadedPage) => `- [${inline(p.title)}](${p.url})`;

function summary(info: CompanyInfo): string {
  const what = info.service_model?.description ?? info.coverage ?? '';
  return inline(what || `${info.brand}: solicitudes de reparaciones, reformas y servicios técnicos del hogar.`);
}

export function buildLlmsTxt(config: LlmsConfig, model: LlmsModel): string {
  const l = links(config);
  const info = company(model);
  const b = config.baseUrl;
  const byKind = (kind: Kind) => model.pages.filter((p) => p.kind === kind);
  const serviceCity = byKind('service-city');

  const out = [
    `# ${inline(info.brand)}`,
    '',
    `> ${summary(info)}`,
    '',
    `Cada enlace es una página HTML que también responde en Markdown si se pide con \`Accept: text/markdown\`. `
      + `La API de solo lectura devuelve el mismo texto: \`GET ${b}${operationPath('read_page')}?url=<url>\` (una página larga en partes: siga con \`offset\` = \`next_offset\` y el \`version\` recibido); para buscar, \`GET ${b}${operationPath('search_pages')}?query=<texto>\`. `
      + `Sin registro: ${config.rateLimit.anonymous} peticiones ${perWindow(config.rateLimit.windowSeconds)} por IP; con un token gratuito, ${config.rateLimit.identified}. El sitio no reserva ni cobra nada en línea.`,
    '',
    '## Para agentes',
    '',
    `- [Instrucciones para agentes](${l.agentsMd}): qué es y qué no es el sitio, flujo de uso, cuotas, errores y MCP`,
    `- [Autenticación](${l.authMd}): registro gratuito y automático, tokens OAuth 2.0 y límites`,
    `- [OpenAPI 3.1](${l.openapi}): contrato de la API de contenido`,
    `- [Documentación para desarrolladores](${l.developers}): referencia, errores y política de versiones`,
    `- [Texto completo](${l.llmsFullTxt}): el Markdown de las páginas principales en un solo documento`,
    `- [Búsqueda estática con Pagefind](${l.pagefind}): búsqueda simple por palabras desde una CDN, sin pasar por la API ni gastar su cuota (en un sitio grande, en partes que lista ${l.pagefindParts}, para añadir con mergeIndex); sin el léxico de la API (sinónimos, otros idiomas, erratas, intenciones): para las mejores respuestas, search_pages`,
  ];
  for (const { kind, title } of SECTIONS) {
    const pages = byKind(kind);
    if (pages.length === 0) continue;
    out.push('', `## ${title}`, '', ...pages.map(linkLine));
  }
  if (serviceCity.length > 0) {
    out.push('', '## Optional', '');
    let size = out.reduce((n, line) => n + line.length + 1, 0);
    const rest = (n: number) => `- [Mapa del sitio](${l.site}/sitemap-index.xml): las ${n} páginas restantes de servicios por ciudad; también search_pages con \`city\``;
    const reserve = rest(serviceCity.length).length + 2;
    let listed = 0;
    for (const p of serviceCity) {
      const line = bareLine(p);
      if (size + line.length + 1 + (listed + 1 < serviceCity.length ? reserve : 0) > LLMS_TXT_MAX_CHARS) break;
      out.push(line);
      size += line.length + 1;
      listed++;
    }
    if (listed < serviceCity.length) out.push(rest(serviceCity.length - listed));
  }
  out.push('');
  return out.join('\n');
}

/** The Markdown of the key pages, read from the build's page files a few at a time. */
export async function buildLlmsFullTxt(config: LlmsConfig, model: LlmsModel & Pick<LoadedModel, 'textOf'>): Promise<string> {
  const l = links(config);
  const info = company(model);
  const order = new Map(SECTIONS.map((s, i) => [s.kind, i] as const));
  const pages = model.pages
    .filter((p) => KEY_KINDS.has(p.kind))
    .sort((a, b) => order.get(a.kind)! - order.get(b.kind)! || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const out = [
    `# ${inline(info.brand)} — texto completo`,
    '',
    `> ${summary(info)}`,
    '',
    `Markdown de las ${pages.length} páginas principales de ${l.site}. Índice: ${l.llmsTxt}. Instrucciones para agentes: ${l.agentsMd}.`,
  ];
  const texts = await mapLimit(pages, FILES_AT_ONCE, async (p) => (await model.textOf(p)).markdown);
  for (const [i, p] of pages.entries()) {
    const text = texts[i]!.trim();
    out.push('', '---', '', `URL: ${p.url}`, '');
    // The page's Markdown usually opens with its own H1; add one only when it does not.
    if (!/^# /.test(text)) out.push(`# ${inline(p.title)}`, '');
    out.push(text);
  }
  out.push('');
  return out.join('\n');
}
