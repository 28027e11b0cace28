/**
 * Scrapes a metrics listener with a real HTTP request and parses the Prometheus text exposition
 * format (version 0.0.4): `# HELP`, `# TYPE` and sample lines. A line that is none of these fails
 * the parse, so malformed output fails the test that scraped it.
 */
import * as assert from 'uvu/assert';
import { request } from './http.ts';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  samples: Sample[];
  /** Metric family → its TYPE (counter, gauge, histogram…). */
  types: Map<string, string>;
  help: Map<string, string>;
  /** The value of the one sample of `name` whose labels include `labels` (0 when there is none). */
  value(name: string, labels?: Record<string, string>): number;
  /** The samples of `name`. */
  of(name: string): Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: \\d+)?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  let consumed = 0;
  for (let m = LABEL.exec(text); m !== null; m = LABEL.exec(text)) {
    labels[m[1]!] = m[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    consumed = LABEL.lastIndex;
  }
  assert.is(consumed, text.length, `labels of: ${line}`);
  return labels;
}

/** A Go float, as Prometheus parses it: `NaN` and `Inf` in any case (prom-client writes `Nan`). */
function parseValue(raw: string): number | undefined {
  if (/^nan$/i.test(raw)) return Number.NaN;
  if (/^[+-]?inf(inity)?$/i.test(raw)) return raw.startsWith('-') ? -Infinity : Infinity;
  const n = Number(raw);
  return raw.trim() === '' || Number.isNaN(n) ? undefined : n;
}

export function parseExposition(text: string): Scrape {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      (meta[1] === 'TYPE' ? types : help).set(meta[2]!, meta[3]!);
      continue;
    }
    const m = SAMPLE.exec(line);
    assert.ok(m, `an exposition line: ${line}`);
    const value = parseValue(m[3]!);
    assert.ok(value !== undefined, `a number in: ${line}`);
    samples.push({ name: m[1]!, labels: m[2] ? parseLabels(m[2], line) : {}, value });
  }
  const matches = (s: Sample, labels: Record<string, string>) => Object.entries(labels).every(([k, v]) => s.labels[k] === v);
  return {
    samples,
    types,
    help,
    of: (name) => samples.filter((s) => s.name === name),
    value(name, labels = {}) {
      const found = samples.filter((s) => s.name === name && matches(s, labels));
      assert.ok(found.length <= 1, `one sample of ${name} ${JSON.stringify(labels)}, found ${found.length}`);
      return found[0]?.value ?? 0;
    },
  };
}

/** GET <metricsUrl>/metrics, checked to be the text format, parsed. */
export async function scrape(metricsUrl: string): Promise<Scrape> {
  const res = await request(`${metricsUrl}/metrics`);
  assert.is(res.status, 200, `scrape: ${res.text().slice(0, 200)}`);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return parseExposition(res.text());
}
