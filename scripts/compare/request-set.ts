/**
 * The recorded request set of scripts/compare-responses.ts (requests.json): its shape, the
 * `{{…}}` templates filled from what the same server answered earlier, and the captures.
 */
import fs from 'node:fs';
import type { Recorded } from './send.ts';

export interface RequestSpec {
  name: string;
  /** `metrics`: the Prometheus listener (METRICS_PORT) instead of the main one. */
  target?: 'main' | 'metrics';
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  /** The body as a string (templated). */
  body?: string;
  /** The body as JSON (strings in it templated); adds nothing to the headers. */
  json?: unknown;
  /** Bytes written as they are on a fresh connection, instead of an HTTP client's request. */
  raw?: string;
  /** Values kept for later requests: `json:<dotted path>`, `header:<name>` or `regex:<pattern>`. */
  capture?: Record<string, string>;
  /** Sent this many times in a row (each answer compared). */
  repeat?: number;
}

export interface RequestSet {
  description?: string;
  /** Captures whose values are random by protocol, with why: normalised to `<name>` in answers. */
  random: Record<string, string>;
  requests: RequestSpec[];
}

export function loadRequestSet(file: string): RequestSet {
  const set = JSON.parse(fs.readFileSync(file, 'utf8')) as RequestSet;
  if (!Array.isArray(set.requests)) throw new Error(`${file}: no "requests" array`);
  return { ...set, random: set.random ?? {} };
}

export type Captured = Map<string, string>;

/**
 * Fills `{{name}}` with a captured value, `{{base64:a:b}}` with base64("a:b") of two of them
 * (HTTP Basic credentials) and `{{repeat:c:n}}` with `c` n times (oversized inputs, kept out of the file).
 */
export function fill(text: string, captured: Captured): string {
  const value = (name: string) => {
    const v = captured.get(name);
    if (v === undefined) throw new Error(`{{${name}}} was not captured by an earlier request`);
    return v;
  };
  return text.replace(/\{\{([^}]+)\}\}/g, (_, expr: string) => {
    const [fn, ...args] = expr.split(':');
    if (fn === 'base64') return Buffer.from(args.map(value).join(':')).toString('base64');
    if (fn === 'repeat') return args[0]!.repeat(Number(args[1]));
    return value(expr);
  });
}

const fillDeep = (v: unknown, captured: Captured): unknown =>
  typeof v === 'string' ? fill(v, captured)
    : Array.isArray(v) ? v.map((x) => fillDeep(x, captured))
      : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillDeep(x, captured)]))
        : v;

export interface ConcreteRequest {
  target: 'main' | 'metrics';
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
  raw: Buffer | null;
}

/** The request as it goes on the wire to one server, from that server's captures. */
export function concrete(spec: RequestSpec, captured: Captured): ConcreteRequest {
  const headers = Object.fromEntries(Object.entries(spec.headers ?? {}).map(([k, v]) => [k, fill(v, captured)]));
  const body = spec.json !== undefined ? JSON.stringify(fillDeep(spec.json, captured))
    : spec.body !== undefined ? fill(spec.body, captured) : null;
  return {
    target: spec.target ?? 'main',
    method: spec.method ?? 'GET',
    path: fill(spec.path ?? '/', captured),
    headers,
    body: body === null ? null : Buffer.from(body),
    raw: spec.raw === undefined ? null : Buffer.from(fill(spec.raw, captured)),
  };
}

/** Stores what `spec.capture` asks for from one server's answer; a capture that finds nothing is left unset. */
export function capture(spec: RequestSpec, res: Recorded, decoded: Buffer, captured: Captured): void {
  for (const [name, from] of Object.entries(spec.capture ?? {})) {
    const [kind, ...rest] = from.split(':');
    const arg = rest.join(':');
    let value: unknown;
    if (kind === 'header') value = res.headers.find(([h]) => h.toLowerCase() === arg.toLowerCase())?.[1];
    else if (kind === 'regex') value = new RegExp(arg).exec(decoded.toString('utf8'))?.[0];
    else if (kind === 'json') {
      try {
        value = arg.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), JSON.parse(decoded.toString('utf8')));
      } catch { value = undefined; }
    } else throw new Error(`${spec.name}: capture ${name} "${from}": use json:, header: or regex:`);
    if (value !== undefined && value !== null) captured.set(name, String(value));
  }
}
