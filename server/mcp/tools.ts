/**
 * The MCP tools: one per operation (server/operations), under the operation's name, with its
 * input schema (defaults shown, `limit` an integer, no other argument), its output schema and the
 * texts a model reads. The JSON Schemas are built once, here.
 */
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ApiError, API_CODES } from '../errors.ts';
import { tidy } from '../discovery/json-schema.ts';
import type { Links } from '../discovery/links.ts';
import type { Operation } from '../operations/operation.ts';

/** Nothing is written anywhere: every tool only reads the published pages or the caller's quota. */
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/**
 * zod → JSON Schema 2020-12, tidied as /openapi.json is (no ±2^53 noise; response objects do not
 * forbid fields added within v1) except that a nullable value stays `anyOf` (portable to hosts
 * with single-`type` schema dialects).
 */
const jsonSchema = (s: z.ZodObject, io: 'input' | 'output') =>
  tidy(z.toJSONSchema(s, { target: 'draft-2020-12', io }), { typeArrays: false });

/** What tools/list publishes for `op`. */
export function toolOf(op: Operation, links: Links): Tool {
  const { title, description } = op.tool;
  return {
    name: op.name,
    title,
    description: typeof description === 'string' ? description : description(links),
    // Arguments beyond the declared ones are refused (collectArguments), so the schema says so.
    inputSchema: { ...jsonSchema(op.input, 'input') as Tool['inputSchema'], additionalProperties: false },
    outputSchema: jsonSchema(op.output.schema, 'output') as Tool['outputSchema'],
    annotations: { title, ...ANNOTATIONS },
  };
}

/**
 * An argument the tool does not declare: the call is malformed rather than a value wrong, so
 * JSON-RPC -32602 (server.ts), as for an unknown tool; counted like any call (it comes from the
 * pipeline's input step).
 */
export class UndeclaredArgument extends ApiError {}

/** A tool call's `arguments` for the operation's schema: any name the tool does not declare is refused. */
export function collectArguments(op: Operation, raw: unknown): Record<string, unknown> {
  const args = raw as Record<string, unknown>;
  for (const name in args) {
    if (Object.hasOwn(op.input.shape, name)) continue;
    const declared = Object.keys(op.input.shape);
    throw new UndeclaredArgument(400, API_CODES.invalidParam,
      `Parámetro no válido: ${name}. ${op.name} no lo admite; ${declared.length === 0 ? 'no admite argumentos' : `admite: ${declared.join(', ')}`}.`, name);
  }
  return args;
}
