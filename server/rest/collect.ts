/**
 * REST parameters: the query string's values as the operation's schema takes them. A parameter
 * given twice (`?query=a&query=b`) is refused rather than guessed at; unknown parameters are
 * ignored (clients must ignore what they do not know, and the same holds for what they send). An
 * integer parameter must be decimal digits (a number parse would also take `1e1`, ` 5` or
 * `0x10`); those are checked first, then the values are collected in the schema's order. A value
 * whose percent-escapes do not decode is refused under its name.
 */
import { invalidParam } from '../errors.ts';
import { inputProperties } from '../discovery/json-schema.ts';
import type { OperationCore } from '../operations/operation.ts';
import { MALFORMED, type RawQuery } from './query.ts';

const DIGITS = /^[0-9]{1,6}$/;
const BAD_ESCAPES = 'Su codificación por ciento no es válida: cada carácter que no sea ASCII va en UTF-8 como %XX (encodeURIComponent).';

interface Shape {
  names: string[];
  integers: Map<string, string>;
}

function shapeOf(op: OperationCore): Shape {
  const integers = new Map<string, string>();
  for (const p of inputProperties(op.input)) {
    if (p.schema.type !== 'integer') continue;
    const { minimum, maximum } = p.schema;
    integers.set(p.name, typeof minimum === 'number' && typeof maximum === 'number'
      ? `Debe ser un número entero entre ${minimum} y ${maximum}.`
      : 'Debe ser un número entero.');
  }
  return { names: Object.keys(op.input.shape), integers };
}

export function createCollector(): (op: OperationCore, raw: unknown) => Record<string, unknown> {
  const shapes = new WeakMap<OperationCore, Shape>();
  return (op, raw) => {
    const query = raw as RawQuery;
    let shape = shapes.get(op);
    if (shape === undefined) shapes.set(op, (shape = shapeOf(op)));
    for (const [name, rule] of shape.integers) {
      const value = query.get(name);
      if (typeof value === 'string' && !DIGITS.test(value)) throw invalidParam(name, rule);
    }
    const input: Record<string, unknown> = {};
    for (const name of shape.names) {
      const value = query.get(name);
      if (value === undefined) continue;
      if (value === MALFORMED) throw invalidParam(name, BAD_ESCAPES);
      if (typeof value !== 'string') throw invalidParam(name, 'Se ha enviado más de una vez; envíelo una sola vez.');
      input[name] = shape.integers.has(name) ? Number(value) : value;
    }
    return input;
  };
}
