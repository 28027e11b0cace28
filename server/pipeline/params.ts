/**
 * The input step's check of an operation's parameters against its zod schema, with the errors of
 * the contract for every wire format: missing → 400 `rest_missing_callback_param`, invalid → 400
 * `rest_invalid_param`, both with `data.hint` = the parameter name, as WordPress does.
 */
import type { z } from 'zod';
import { invalidParam, missingParam } from '../errors.ts';

/** Validates collected parameters (REST's converted query, MCP's arguments). */
export function validateParams<S extends z.ZodObject>(schema: S, input: Record<string, unknown>): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? '');
  if (input[name] === undefined) throw missingParam(name);
  throw invalidParam(name, describe(issue));
}

/** The rule a value broke, in the words of the documentation. */
function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string'
        ? `Debe tener al menos ${issue.minimum} caracteres.`
        : `Debe ser un número entero mayor o igual que ${issue.minimum}.`;
    case 'too_big':
      return issue.origin === 'string'
        ? `Debe tener como máximo ${issue.maximum} caracteres.`
        : `Debe ser un número entero menor o igual que ${issue.maximum}.`;
    case 'invalid_value':
      return `Valores admitidos: ${issue.values.map(String).join(', ')}.`;
    case 'invalid_type':
      return issue.expected === 'int' || issue.expected === 'number' ? 'Debe ser un número entero.' : `Debe ser de tipo ${issue.expected}.`;
    default:
      return issue.message;
  }
}
