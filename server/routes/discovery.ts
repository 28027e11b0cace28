/**
 * The discovery documents under {site_url}: OpenAPI, OAuth metadata (RFC 8414, RFC 9728), the
 * API catalogue (RFC 9727), agents.md, auth.md, llms.txt and the MCP server card.
 *
 * The Config is fixed for a process, so the config-derived documents are serialized once, here,
 * at registration (their compressed encodings are made once, in the background). llms.txt and
 * llms-full.txt follow the read model and are rebuilt once per build id.
 *
 * Every document: `Access-Control-Allow-Origin: *` (cross-origin GET, conformance.md §6), a
 * `Cache-Control` max-age, a strong `ETag` with `If-None-Match` → 304, HEAD, OPTIONS preflight,
 * and 405 JSON for any other method. `/.well-known/openid-configuration` is a JSON 404: there are
 * no users and no login, so OpenID Connect does not apply.
 */
import type { ServerResponse } from 'node:http';
import { handle, type AppDeps, type Route } from '../app.ts';
import { methodNotAllowed, noResource } from '../errors.ts';
import { makeRepresentation } from '../compression.ts';
import { answerPreflight, writeCors } from '../http/cors.ts';
import { sendRepresentation } from '../http/respond.ts';
import { CACHE_CONFIG_DOCUMENT, CACHE_MODEL_DOCUMENT } from '../http/cache-policy.ts';
import type { Representation } from '../read-model/types.ts';
import { buildAgentsMd } from '../discovery/agents-md.ts';
import { API_CATALOG_CONTENT_TYPE, apiCatalogLinkHeader, buildApiCatalog } from '../discovery/api-catalog.ts';
import { buildAuthMd } from '../discovery/auth-md.ts';
import { buildAuthorizationServerMetadata } from '../discovery/authorization-server.ts';
import { DISCOVERY_PATHS, links } from '../discovery/links.ts';
import { buildLlmsFullTxt, buildLlmsTxt } from '../discovery/llms-txt.ts';
import { buildOpenApi } from '../discovery/openapi.ts';
import { buildProtectedResourceMetadata } from '../discovery/protected-resource.ts';
import { buildServerCard, SERVER_CARD_MEDIA_TYPE } from '../mcp/identity.ts';


const JSON_TYPE = 'application/json; charset=utf-8';
const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const ALLOW = 'GET, HEAD, OPTIONS';

interface Served {
  contentType: string;
  cacheControl: string;
  headers?: Record<string, string>;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2) + '\n');

export const discoveryRoutes: Route = (app, deps) => {
  const { config } = deps;

  /** Registers GET/HEAD (from `represent`), OPTIONS and 405 on `path`. */
  const serve = (path: string, served: Served, represent: () => Promise<Representation>) => {
    const answer = handle(deps, async (req, res) => {
      writeHeaders(res, served);
      sendRepresentation(req, res, await represent(), served.cacheControl, served.contentType);
    });
    app.get(path, answer);
    app.head(path, answer);
    app.options(path, (_req, res) => { writeCors(res); answerPreflight(res); });
    app.all(path, handle(deps, (_req, res) => {
      writeCors(res);
      throw methodNotAllowed(ALLOW);
    }));
  };

  /** Serialized now; compressed in the background, awaited by the first request if need be. */
  const once = (path: string, body: Buffer, served: Served) => {
    const rep = makeRepresentation(body);
    rep.catch((err) => deps.log.error(`discovery document ${path} could not be prepared`, err));
    serve(path, served, () => rep);
  };

  const configDoc = (contentType: string, headers?: Record<string, string>): Served =>
    ({ contentType, cacheControl: CACHE_CONFIG_DOCUMENT, ...(headers ? { headers } : {}) });

  once(DISCOVERY_PATHS.openapi, json(buildOpenApi(config, deps.operations)), configDoc(JSON_TYPE));
  once(DISCOVERY_PATHS.authorizationServer, json(buildAuthorizationServerMetadata(config)), configDoc(JSON_TYPE));
  for (const doc of buildProtectedResourceMetadata(config)) once(doc.path, json(doc.body), configDoc(JSON_TYPE));
  once(DISCOVERY_PATHS.apiCatalog, json(buildApiCatalog(config)), configDoc(API_CATALOG_CONTENT_TYPE, { Link: apiCatalogLinkHeader(config) }));
  once(DISCOVERY_PATHS.agentsMd, Buffer.from(buildAgentsMd(config)), configDoc(MARKDOWN_TYPE));
  once(DISCOVERY_PATHS.authMd, Buffer.from(buildAuthMd(config)), configDoc(MARKDOWN_TYPE));
  // The contract's address answers plain JSON (what the API catalogue declares); the MCP one, its media type.
  const card = json(buildServerCard(config));
  once(DISCOVERY_PATHS.mcpServerCard, card, configDoc(JSON_TYPE));
  once(DISCOVERY_PATHS.mcpServerCardSuffix, card, configDoc(SERVER_CARD_MEDIA_TYPE));

  const modelDoc: Served = { contentType: TEXT_TYPE, cacheControl: CACHE_MODEL_DOCUMENT };
  serve(DISCOVERY_PATHS.llmsTxt, modelDoc, perBuild(deps, (model) => buildLlmsTxt(config, model)));
  serve(DISCOVERY_PATHS.llmsFullTxt, modelDoc, perBuild(deps, (model) => buildLlmsFullTxt(config, model)));

  const l = links(config);
  app.all(DISCOVERY_PATHS.openidConfiguration, handle(deps, (_req, res) => {
    writeCors(res);
    throw noResource(
      'No se publica /.well-known/openid-configuration: OpenID Connect no aplica (no hay usuarios ni inicio de sesión).',
      `Metadatos del servidor de autorización OAuth 2.0 (RFC 8414): ${l.authorizationServerMetadata}`);
  }));
};

function writeHeaders(res: ServerResponse, served: Served): void {
  writeCors(res);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (served.headers) for (const [name, value] of Object.entries(served.headers)) res.setHeader(name, value);
}

/** A document of the current read model, built and compressed once per build id. */
function perBuild(deps: AppDeps, build: (model: ReturnType<AppDeps['model']['current']>) => string | Promise<string>) {
  let cached: { buildId: string; rep: Promise<Representation> } | null = null;
  return (): Promise<Representation> => {
    const model = deps.model.current();
    const buildId = model.manifest.build_id;
    if (cached === null || cached.buildId !== buildId) {
      const entry = { buildId, rep: (async () => makeRepresentation(Buffer.from(await build(model))))() };
      // A failure is answered (500) and not remembered: the next request tries again.
      entry.rep.catch(() => { if (cached === entry) cached = null; });
      cached = entry;
    }
    return cached.rep;
  };
}
