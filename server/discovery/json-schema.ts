/**
 * zod v4 schemas → JSON Schema 2020-12 for /openapi.json (and anyone else who publishes them),
 * with `z.toJSONSchema`. Three adjustments turn zod's output into what the contract publishes:
 *
 * - `X | null` is written `type: ["string", "null"]` (conformance.md §10), not zod's
 *   `anyOf: [{type: "string"}, {type: "null"}]`;
 * - the ±2^53−1 bounds zod adds to every `.int()` are implementation noise and are dropped;
 * - `additionalProperties: false` on response objects is dropped: the versioning policy adds
 *   fields within v1 and clients must ignore what they do not know, so the published document
 *   must not forbid them. (The response validator puts the strictness back for our own tests.)
 */
import { z } from 'zod';

export type JsonSchema = { [key: string]: unknown };

const SAFE = Number.MAX_SAFE_INTEGER;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Walks a JSON Schema tree bottom-up, applying the three adjustments. `typeArrays: false` keeps
 * zod's `anyOf` for nullable values: MCP tool schemas are mapped by some hosts onto single-`type`
 * dialects, which reject a `type` array (the MCP Inspector's schema-portability check says so).
 */
export function tidy(schema: unknown, options: { typeArrays?: boolean } = {}): unknown {
  if (Array.isArray(schema)) return schema.map((s) => tidy(s, options));
  if (!isObject(schema)) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === '$id') continue;
    out[key] = tidy(value, options);
  }
  if (out.type === 'integer') {
    if (out.maximum === SAFE) delete out.maximum;
    if (out.minimum === -SAFE) delete out.minimum;
  }
  if (out.type === 'object' && out.additionalProperties === false) delete out.additionalProperties;
  return options.typeArrays === false ? out : collapseNullable(out);
}

/** `{anyOf: [S, {type: "null"}], …rest}` with a plain typed S → `{…S, type: [S.type, "null"], …rest}`. */
function collapseNullable(schema: JsonSchema): JsonSchema {
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return schema;
  const nullIndex = anyOf.findIndex((s) => isObject(s) && s.type === 'null' && Object.keys(s).length === 1);
  if (nullIndex === -1) return schema;
  const other = anyOf[1 - nullIndex];
  if (!isObject(other) || typeof other.type !== 'string' || '$ref' in other || 'anyOf' in other || 'oneOf' in other) return schema;
  const { anyOf: _drop, ...rest } = schema;
  const merged: JsonSchema = { ...other, ...rest, type: [other.type, 'null'] };
  if (Array.isArray(other.enum)) merged.enum = [...other.enum, null];
  if ('const' in other) { merged.enum = [other.const, null]; delete merged.const; }
  return merged;
}

/**
 * Named schemas → `components.schemas`. A schema used inside another named one becomes a
 * `$ref: "#/components/schemas/<name>"`, so each definition appears once.
 */
export function componentSchemas(named: Record<string, z.ZodType>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  const out: Record<string, JsonSchema> = {};
  for (const id of Object.keys(named)) out[id] = tidy(schemas[id]) as JsonSchema;
  return out;
}

export interface ObjectProperty {
  name: string;
  required: boolean;
  description: string | undefined;
  /** The property's schema, description removed (it travels beside it). */
  schema: JsonSchema;
}

/**
 * The properties of an object schema as the client sends them (`io: "input"`): a property with
 * a default is optional and carries its `default`, and a coerced number is described by its
 * target type (`limit` is an integer, although REST receives it as a string).
 */
export function inputProperties(schema: z.ZodObject): ObjectProperty[] {
  const json = tidy(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' })) as JsonSchema;
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return { name, required: required.has(name), description: description as string | undefined, schema: rest };
  });
}
