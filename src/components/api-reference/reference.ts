/**
 * The OpenAPI document (server/discovery/openapi.ts) → what the developers page prints: one entry
 * per operation with its parameters, security and responses, the response schemas and the
 * response headers. Every value is read from the document, so the page cannot say something the
 * API does not publish; `$ref`s are resolved here, once.
 */
import type { JsonSchema } from '../../../server/discovery/json-schema.ts';
import type { OpenApiDocument } from '../../../server/discovery/openapi.ts';

export interface ParameterRow {
  name: string;
  in: string;
  required: boolean;
  type: string;
  /** `longitud 2–200`, `1–25`…; empty when unbounded. */
  bounds: string;
  /** The same bounds as numbers, for form controls; null when absent. */
  minLength: number | null;
  maxLength: number | null;
  minimum: number | null;
  maximum: number | null;
  enum: string[];
  /** The default value as written in a request (`todas`, `8`), or null when there is none. */
  default: string | null;
  description: string;
}

export interface ResponseRow {
  status: string;
  description: string;
  /** Headers always sent, then those sent only in some cases (lifecycle headers). */
  headers: string[];
  optionalHeaders: string[];
  /** Whether this response carries all of the operation's common headers… */
  common: boolean;
  /** …and, if so, which it adds to them (otherwise, all of its own). */
  extraHeaders: string[];
  extraOptionalHeaders: string[];
  /** Name of the body schema, or null (304: no body). */
  schema: string | null;
}

export interface SecurityInfo {
  /** Whether a request without credentials is admitted. */
  anonymous: boolean;
  /** OAuth 2.0 scopes a token must carry. */
  scopes: string[];
}

export interface OperationEntry {
  id: string;
  method: string;
  /** Path under the API base (`/search_pages`). */
  path: string;
  /** Full URL (`{base_url}/search_pages`). */
  url: string;
  summary: string;
  description: string;
  tags: string[];
  deprecated: boolean;
  security: SecurityInfo;
  parameters: ParameterRow[];
  /** Headers most responses of the operation carry, listed once instead of on every row. */
  commonHeaders: { headers: string[]; optionalHeaders: string[] };
  responses: ResponseRow[];
}

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

export interface SchemaEntry {
  name: string;
  description: string;
  /** Fields of an object schema; empty for an enumeration. */
  fields: FieldRow[];
  /** Values of an enumeration; empty for an object schema. */
  values: string[];
}

export interface HeaderEntry {
  name: string;
  description: string;
  /** Always sent where listed (`required` in the document), or only in some cases. */
  required: boolean;
  example: string | null;
}

export interface ApiReference {
  baseUrl: string;
  version: string;
  operations: OperationEntry[];
  schemas: SchemaEntry[];
  headers: HeaderEntry[];
  tokenUrl: string;
  scopes: { name: string; description: string }[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** `#/components/responses/NotFound` → the object it names (one level: the document never nests). */
function resolve(doc: OpenApiDocument, value: unknown): JsonSchema {
  if (!isObject(value) || typeof value.$ref !== 'string') return isObject(value) ? value : {};
  const parts = value.$ref.replace(/^#\//, '').split('/');
  let node: unknown = doc;
  for (const part of parts) node = isObject(node) ? node[part] : undefined;
  if (!isObject(node)) throw new Error(`unresolved $ref ${value.$ref} in the OpenAPI document`);
  return node;
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** A JSON Schema as a short type expression: `string`, `integer`, `string | null`, `array de SearchResult`. */
export function typeOf(schema: unknown): string {
  if (!isObject(schema)) return 'cualquiera';
  if (typeof schema.$ref === 'string') return refName(schema.$ref);
  if ('const' in schema) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.map(typeOf).join(' | ');
  }
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => typeOf({ ...schema, type: t })).join(' | ');
  if (type === 'array') return `array de ${typeOf(schema.items)}`;
  if (type === 'object' && isObject(schema.additionalProperties)) return `objeto con valores ${typeOf(schema.additionalProperties)}`;
  if (type === 'object') return 'objeto';
  return typeof type === 'string' ? type : 'cualquiera';
}

const range = (min: unknown, max: unknown): string => {
  const lo = typeof min === 'number' ? min : null;
  const hi = typeof max === 'number' ? max : null;
  if (lo !== null && hi !== null) return `${lo}–${hi}`;
  if (lo !== null) return `≥ ${lo}`;
  if (hi !== null) return `≤ ${hi}`;
  return '';
};

/** Length and value bounds of a schema, in words. */
export function boundsOf(schema: JsonSchema): string {
  const parts: string[] = [];
  const length = range(schema.minLength, schema.maxLength);
  if (length) parts.push(`longitud ${length}`);
  const value = range(schema.minimum, schema.maximum);
  if (value) parts.push(`valor ${value}`);
  if (typeof schema.pattern === 'string') parts.push(`patrón ${schema.pattern}`);
  return parts.join('; ');
}

function parameter(doc: OpenApiDocument, raw: unknown): ParameterRow {
  const p = resolve(doc, raw);
  const schema = resolve(doc, p.schema);
  return {
    name: str(p.name),
    in: str(p.in),
    required: p.required === true,
    type: typeOf(schema),
    bounds: boundsOf(schema),
    minLength: num(schema.minLength),
    maxLength: num(schema.maxLength),
    minimum: num(schema.minimum),
    maximum: num(schema.maximum),
    enum: Array.isArray(schema.enum) ? schema.enum.map(String) : [],
    default: !('default' in schema) ? null : typeof schema.default === 'string' ? schema.default : JSON.stringify(schema.default),
    description: str(p.description),
  };
}

function response(doc: OpenApiDocument, status: string, raw: unknown): ResponseRow {
  const r = resolve(doc, raw);
  const headers: string[] = [];
  const optionalHeaders: string[] = [];
  for (const [name, h] of Object.entries(isObject(r.headers) ? r.headers : {})) {
    (resolve(doc, h).required === true ? headers : optionalHeaders).push(name);
  }
  let schema: string | null = null;
  if (isObject(r.content)) {
    const media = Object.values(r.content)[0];
    if (isObject(media)) schema = typeOf(media.schema);
  }
  return { status, description: str(r.description), headers, optionalHeaders, common: false, extraHeaders: headers, extraOptionalHeaders: optionalHeaders, schema };
}

/** Headers present in more than half of the responses become the operation's common headers. */
function factorHeaders(responses: ResponseRow[]): OperationEntry['commonHeaders'] {
  const majority = (pick: (r: ResponseRow) => string[]) => {
    const counts = new Map<string, number>();
    for (const r of responses) for (const h of pick(r)) counts.set(h, (counts.get(h) ?? 0) + 1);
    return [...counts].filter(([, n]) => n * 2 > responses.length).map(([h]) => h);
  };
  const common = { headers: majority((r) => r.headers), optionalHeaders: majority((r) => r.optionalHeaders) };
  for (const r of responses) {
    r.common = common.headers.every((h) => r.headers.includes(h)) && common.optionalHeaders.every((h) => r.optionalHeaders.includes(h));
    if (!r.common) continue;
    r.extraHeaders = r.headers.filter((h) => !common.headers.includes(h));
    r.extraOptionalHeaders = r.optionalHeaders.filter((h) => !common.optionalHeaders.includes(h));
  }
  return common;
}

function security(doc: OpenApiDocument, op: JsonSchema): SecurityInfo {
  const requirements = (Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : []) as unknown[];
  const scopes = new Set<string>();
  let anonymous = requirements.length === 0;
  for (const req of requirements) {
    if (!isObject(req)) continue;
    if (Object.keys(req).length === 0) anonymous = true;
    for (const list of Object.values(req)) if (Array.isArray(list)) for (const s of list) scopes.add(String(s));
  }
  return { anonymous, scopes: [...scopes] };
}

export function apiReference(doc: OpenApiDocument): ApiReference {
  const baseUrl = doc.servers[0]?.url ?? '';
  const operations: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const responses = Object.entries(isObject(op.responses) ? op.responses : {})
        .map(([status, r]) => response(doc, status, r))
        .sort((a, b) => a.status.localeCompare(b.status));
      operations.push({
        id: str(op.operationId),
        method: method.toUpperCase(),
        path,
        url: baseUrl + path,
        summary: str(op.summary),
        description: str(op.description),
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        deprecated: op.deprecated === true,
        security: security(doc, op),
        parameters: (Array.isArray(op.parameters) ? op.parameters : []).map((p) => parameter(doc, p)),
        commonHeaders: factorHeaders(responses),
        responses,
      });
    }
  }

  const schemas: SchemaEntry[] = Object.entries(doc.components.schemas).map(([name, s]) => {
    const props = isObject(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
    return {
      name,
      description: str(s.description),
      values: Array.isArray(s.enum) ? s.enum.map(String) : [],
      fields: Object.entries(props).map(([field, fs]) => ({
        name: field,
        type: typeOf(fs),
        required: required.has(field),
        description: isObject(fs) ? str(fs.description) : '',
      })),
    };
  });

  const headerDefs = isObject(doc.components.headers) ? doc.components.headers : {};
  const headers: HeaderEntry[] = Object.entries(headerDefs).map(([name, h]) => {
    const def = isObject(h) ? h : {};
    return {
      name,
      description: str(def.description),
      required: def.required === true,
      example: def.example === undefined ? null : String(def.example),
    };
  });

  const schemes = isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const oauth = Object.values(schemes).find((s) => isObject(s) && s.type === 'oauth2');
  const flow = isObject(oauth) && isObject(oauth.flows) && isObject(oauth.flows.clientCredentials) ? oauth.flows.clientCredentials : {};
  const scopes = Object.entries(isObject(flow.scopes) ? flow.scopes : {}).map(([name, description]) => ({ name, description: String(description) }));

  return {
    baseUrl,
    version: isObject(doc.info) ? str(doc.info.version) : '',
    operations,
    schemas,
    headers,
    tokenUrl: str(flow.tokenUrl),
    scopes,
  };
}

/** `texto con \`código\`` → segments, so descriptions written for Markdown render as HTML. */
export function inlineSegments(text: string): { code: boolean; text: string }[] {
  return text.split('`').map((part, i) => ({ code: i % 2 === 1, text: part })).filter((s) => s.text !== '');
}
