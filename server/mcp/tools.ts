/**
 * The MCP tools: one per operation (server/operations), under the operation's name, with its
 * input schema (defaults shown, `limit` an integer), its output schema and the texts a model
 * reads. The JSON Schemas are built once, here.
 */
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
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
    inputSchema: jsonSchema(op.input, 'input') as Tool['inputSchema'],
    outputSchema: jsonSchema(op.output.schema, 'output') as Tool['outputSchema'],
    annotations: { title, ...ANNOTATIONS },
  };
}
