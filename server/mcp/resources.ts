/**
 * The site's pages as MCP resources (MCP 2025-11-25, "Resources"): one template, `{site}/{+path}`,
 * listed pages (paged), and resources/read returning the page's Markdown (`text/markdown`) as
 * read_page does: the same operation through the same pipeline (quota, parameters), the same
 * parts for a long page. A part past the first is the page URL with `?offset=N&version=V`, the
 * `next_offset` and `version` read_page gives, which `_meta` carries with the URI to read next: a
 * page published again meanwhile answers that URI with an error, never with a part of another text.
 */
import type { ListResourcesResult, ReadResourceResult, ResourceTemplateType } from '@modelcontextprotocol/server';
import type { Links } from '../discovery/links.ts';
import type { OperationResult } from '../operations/operation.ts';
import type { LoadedModel } from '../read-model/types.ts';
import type { Page } from '../../formats/schemas/resources.ts';
import { representationResult } from './results.ts';

export const MARKDOWN = 'text/markdown';
/** `_meta` key of a part's continuation. */
export const CONTINUATION_META = 'agentes/continuation';
const PAGE_SIZE = 100;

export function pageTemplate(l: Links): ResourceTemplateType {
  return {
    uriTemplate: `${l.site}/{+path}`,
    name: 'pagina',
    title: 'Página del sitio en Markdown',
    description: 'Cualquier página publicada del sitio, por su URL: su texto en Markdown, sin menús ni pie (el de read_page). '
      + 'Una página larga llega en partes: la siguiente es la URI `next` de `_meta` (la misma URL con ?offset=…&version=…); '
      + 'si la página ha cambiado entretanto, esa URI da un error y hay que volver a leer la URL sin parámetros.',
    mimeType: MARKDOWN,
  };
}

/**
 * The pages of each loaded build, by where a page of the list starts: a list depends only on the
 * build, so it is built once per build and dropped with it. Only the starts this list hands out
 * as cursors (multiples of PAGE_SIZE) are kept.
 */
const listed = new WeakMap<LoadedModel, Map<number, ListResourcesResult>>();

/** The pages, PAGE_SIZE at a time; the cursor is where the next page of the list starts. */
export function listPages(model: LoadedModel, cursor: string | undefined): ListResourcesResult | null {
  const start = cursor === undefined ? 0 : /^[0-9]{1,9}$/.test(cursor) ? Number(cursor) : -1;
  if (start < 0 || start > model.pages.length) return null;
  if (start % PAGE_SIZE !== 0) return listFrom(model, start);
  let lists = listed.get(model);
  if (lists === undefined) listed.set(model, (lists = new Map()));
  let list = lists.get(start);
  if (list === undefined) lists.set(start, (list = listFrom(model, start)));
  return list;
}

function listFrom(model: LoadedModel, start: number): ListResourcesResult {
  const end = Math.min(start + PAGE_SIZE, model.pages.length);
  return {
    resources: model.pages.slice(start, end).map((p) => ({
      uri: p.url, name: p.slug, title: p.title, mimeType: MARKDOWN, ...(p.description ? { description: p.description } : {}),
    })),
    ...(end < model.pages.length ? { nextCursor: String(end) } : {}),
  };
}

/** A resource URI as read_page's parameters: the page's URL, the part's offset and the page's version, or null. */
export function readTarget(uri: string): { url: string; offset: number; version?: string } | null {
  let url: URL;
  try { url = new URL(uri); } catch { return null; }
  const raw = url.searchParams.get('offset');
  if (raw !== null && !/^[0-9]{1,6}$/.test(raw)) return null;
  const version = url.searchParams.get('version');
  url.search = '';
  url.hash = '';
  return { url: url.href, offset: raw === null ? 0 : Number(raw), ...(version === null ? {} : { version }) };
}

/** read_page's answer as the resource's contents: the Markdown, and where the page goes on. */
export function resourceResult(uri: string, outcome: OperationResult): ReadResourceResult {
  const page = ('representation' in outcome ? representationResult(outcome.representation).structuredContent : outcome.value) as Page;
  const next = page.next_offset ?? null;
  const base = uri.split('?')[0]!;
  return {
    contents: [{
      uri, mimeType: MARKDOWN, text: page.markdown,
      _meta: {
        [CONTINUATION_META]: {
          offset: page.offset ?? 0, next_offset: next, total_chars: page.total_chars, version: page.version,
          next: next === null ? null : `${base}?offset=${next}&version=${page.version}`,
        },
      },
    }],
  };
}
