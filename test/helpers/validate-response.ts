/**
 * Checks one HTTP response against an OpenAPI 3.1 document (ours: /openapi.json), with ajv's
 * JSON Schema 2020-12 validator. Test suites call it on every API response they receive, so a
 * response the server sends and the document does not describe fails a test.
 *
 *   const errors = validateResponse(doc, { path, method, status, contentType, headers, body });
 *   assert.equal(errors, []);
 *
 * - `path`: full URL or absolute path; the query is ignored, and the path of `servers[0].url`
 *   (`/wp-json/agentes/v1`) is stripped when present. A trailing slash is tolerated.
 * - `method`: HEAD is checked against the GET operation, with an empty body.
 * - `headers` (optional: header checks are skipped without it): a fetch `Headers`, or Node's
 *   `IncomingHttpHeaders`/`OutgoingHttpHeaders`. Documented headers marked required must be
 *   present; any documented header present must match its schema (integers are parsed).
 * - `body`: a string or Buffer (parsed as JSON for a JSON media type) or an already parsed value.
 *   A Buffer is decoded first when `headers` name a `Content-Encoding` (gzip, br, deflate).
 *   Statuses documented without content (304) and HEAD responses must have an empty body.
 * - `strict` (default true): response objects may carry no property the document does not
 *   name. The published document allows unknown properties (clients must ignore them); the
 *   server itself must not send undocumented ones.
 * Returns human-readable errors; empty when the response conforms.
 */
import zlib from 'node:zlib';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { JsonSchema } from '../../server/discovery/json-schema.ts';

// Both packages are CommonJS with a `default` export; under ESM the class is the module itself.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule;

export type HeaderBag =
  | { get(name: string): string | null }
  | Record<string, string | string[] | number | undefined>;

export interface ResponseToValidate {
  path: string;
  method: string;
  status: number;
  contentType?: string | null;
  headers?: HeaderBag;
  body?: unknown;
}

export interface ValidateOptions {
  strict?: boolean;
}

type Doc = { servers?: { url: string }[]; paths?: Record<string, Record<string, unknown>>; components?: Record<string, unknown> };

const ROOT_ID = 'urn:agentes:openapi';

interface Compiled {
  ajv: InstanceType<typeof Ajv2020>;
  strict: boolean;
  basePath: string;
  validators: Map<string, ValidateFunction>;
}

const cache = new WeakMap<object, { strict?: Compiled; loose?: Compiled }>();

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `#/components/schemas/X` → an absolute ref into the ajv root; in strict mode, closed objects. */
function prepare(schema: unknown, strict: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((s) => prepare(s, strict));
  if (!isObject(schema)) return schema;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
      out.$ref = `${ROOT_ID}#/$defs/${v.slice('#/components/schemas/'.length)}`;
    } else {
      out[k] = prepare(v, strict);
    }
  }
  if (strict && isObject(out.properties) && !('additionalProperties' in out) && !('unevaluatedProperties' in out)) {
    out.additionalProperties = false;
  }
  return out;
}

function compile(doc: Doc, strict: boolean): Compiled {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv);
  const schemas = ((doc.components?.schemas ?? {}) as Record<string, unknown>);
  const defs: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(schemas)) defs[name] = prepare(schema, strict);
  ajv.addSchema({ $id: ROOT_ID, $defs: defs });
  let basePath = '';
  const server = doc.servers?.[0]?.url;
  if (server) {
    try { basePath = new URL(server).pathname.replace(/\/+$/, ''); } catch { basePath = server.replace(/\/+$/, ''); }
  }
  return { ajv, strict, basePath, validators: new Map() };
}

function compiledFor(doc: Doc, strict: boolean): Compiled {
  let entry = cache.get(doc);
  if (!entry) {
    entry = {};
    cache.set(doc, entry);
  }
  const mode = strict ? 'strict' : 'loose';
  return (entry[mode] ??= compile(doc, strict));
}

/** Follows a local `$ref` (`#/components/...`) inside the document. */
function deref<T>(doc: Doc, value: T): T {
  let v: unknown = value;
  for (let i = 0; i < 10 && isObject(v) && typeof v.$ref === 'string'; i++) {
    const ref = v.$ref as string;
    if (!ref.startsWith('#/')) break;
    v = ref.slice(2).split('/').reduce<unknown>(
      (node, part) => (isObject(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
      doc,
    );
  }
  return v as T;
}

function pathOf(raw: string, basePath: string): string {
  let p = raw;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p)) p = new URL(p).pathname;
  p = p.split('?')[0]!.split('#')[0]!;
  if (basePath && (p === basePath || p.startsWith(basePath + '/'))) p = p.slice(basePath.length) || '/';
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

function findPath(paths: Record<string, unknown>, path: string): string | undefined {
  if (path in paths) return path;
  const parts = path.split('/');
  return Object.keys(paths).find((template) => {
    const t = template.split('/');
    return t.length === parts.length && t.every((seg, i) => (seg.startsWith('{') && seg.endsWith('}') ? parts[i] !== '' : seg === parts[i]));
  });
}

function headerValue(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const bag = headers as Record<string, string | string[] | number | undefined>;
  const lower = name.toLowerCase();
  const key = Object.keys(bag).find((k) => k.toLowerCase() === lower);
  const v = key === undefined ? undefined : bag[key];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(', ') : String(v);
}

const mediaTypeOf = (contentType: string | null | undefined) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();
const isJsonType = (type: string) => type === 'application/json' || type.endsWith('+json');

function isEmptyBody(body: unknown): boolean {
  if (body === undefined || body === null) return true;
  if (typeof body === 'string') return body.length === 0;
  if (body instanceof Uint8Array) return body.length === 0;
  return false;
}

export function validateResponse(doc: object, response: ResponseToValidate, options: ValidateOptions = {}): string[] {
  const d = doc as Doc;
  const compiled = compiledFor(d, options.strict !== false);
  const method = response.method.toLowerCase();
  const opMethod = method === 'head' ? 'get' : method;
  const path = pathOf(response.path, compiled.basePath);
  const where = `${response.method.toUpperCase()} ${path} → ${response.status}`;

  const template = findPath(d.paths ?? {}, path);
  if (template === undefined) return [`${where}: path not in the document`];
  const op = deref(d, d.paths![template]![opMethod]) as JsonSchema | undefined;
  if (!isObject(op)) return [`${where}: method not in the document`];
  const responses = (op.responses ?? {}) as Record<string, unknown>;
  const statusKey = [String(response.status), `${String(response.status)[0]}XX`, 'default'].find((k) => k in responses);
  if (statusKey === undefined) return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
  const documented = deref(d, responses[statusKey]) as JsonSchema;
  const errors: string[] = [];

  if (response.headers) {
    for (const [name, raw] of Object.entries((documented.headers ?? {}) as Record<string, unknown>)) {
      const header = deref(d, raw) as JsonSchema;
      const value = headerValue(response.headers, name);
      if (value === undefined) {
        if (header.required === true) errors.push(`${where}: missing header ${name}`);
        continue;
      }
      const schema = header.schema as JsonSchema | undefined;
      if (!schema) continue;
      let parsed: unknown = value;
      if (schema.type === 'integer' || schema.type === 'number') {
        if (!/^-?[0-9]+(\.[0-9]+)?$/.test(value.trim())) { errors.push(`${where}: header ${name}: "${value}" is not a number`); continue; }
        parsed = Number(value);
      }
      const check = validatorFor(compiled, `header:${template}:${opMethod}:${statusKey}:${name}`, schema);
      if (!check(parsed)) errors.push(...describe(check, `${where}: header ${name}: "${value}"`));
    }
  }

  const content = documented.content as Record<string, JsonSchema> | undefined;
  if (!content || Object.keys(content).length === 0 || method === 'head') {
    if (!isEmptyBody(response.body)) errors.push(`${where}: body must be empty`);
    return errors;
  }

  const type = mediaTypeOf(response.contentType);
  const mediaKey = Object.keys(content).find((k) => k.toLowerCase() === type);
  if (mediaKey === undefined) {
    errors.push(`${where}: content type "${response.contentType ?? ''}" not documented (documented: ${Object.keys(content).join(', ')})`);
    return errors;
  }
  const schema = content[mediaKey]!.schema;
  if (!schema) return errors;

  let body = response.body;
  if (body instanceof Uint8Array && response.headers) {
    const encoding = headerValue(response.headers, 'content-encoding')?.trim().toLowerCase();
    try {
      if (encoding === 'gzip' || encoding === 'x-gzip') body = zlib.gunzipSync(body);
      else if (encoding === 'br') body = zlib.brotliDecompressSync(body);
      else if (encoding === 'deflate') body = zlib.inflateSync(body);
    } catch {
      errors.push(`${where}: body is not valid ${encoding}`);
      return errors;
    }
  }
  if (isJsonType(type) && (typeof body === 'string' || body instanceof Uint8Array)) {
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    try {
      body = JSON.parse(text);
    } catch {
      errors.push(`${where}: body is not JSON`);
      return errors;
    }
  }
  const check = validatorFor(compiled, `body:${template}:${opMethod}:${statusKey}:${mediaKey}`, schema as JsonSchema);
  if (!check(body)) errors.push(...describe(check, `${where}: body`));
  return errors;
}

function validatorFor(compiled: Compiled, key: string, schema: JsonSchema): ValidateFunction {
  let fn = compiled.validators.get(key);
  if (!fn) {
    fn = compiled.ajv.compile(prepare(schema, compiled.strict) as object);
    compiled.validators.set(key, fn);
  }
  return fn;
}

function describe(fn: ValidateFunction, prefix: string): string[] {
  return (fn.errors ?? []).map((e) => {
    const at = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
    return `${prefix}: ${at} ${e.message ?? e.keyword}${extra}`;
  });
}
