/**
 * The realistic query set (data/search-queries/) against the built sample site, through the engine the
 * server opens: floors per group on top-1, overall top-1 and top-3, and every query about
 * something the site does not offer finding nothing. Misses are printed, so a change that loses
 * a query says which.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../../../server/config.ts';
import { loadModel } from '../../../../server/read-model/holder.ts';
import type { LoadedModel } from '../../../../server/read-model/types.ts';
import { builtReadModel } from '../../../helpers/built-site.ts';
import { loadBlind, loadEarlierBlind, loadHeldOut, loadQuerySet } from '../../../../data/search-queries/index.ts';
import { evaluate, share, type Report } from '../../../../scripts/lib/search-relevance.ts';

/** Floors: the targets of the search work. */
export const FLOORS = { top1: 0.95, top3: 0.98, groupTop1: 0.8 };
/**
 * The groups written in Spain's other languages and in English as residents write it: each at
 * least `top1`, with at least `queries` queries, off-site ones among them.
 */
export const LANGUAGES = { groups: ['ca', 'gl', 'eu', 'en-residents'], top1: 0.85, queries: 25 };
/**
 * The held-out set is nobody's to tune for: its guard is looser (set below its first
 * measurement), so it catches a change that breaks how the search generalizes, not a query.
 */
export const HELD_OUT_FLOOR = { top1: 0.8 };
/**
 * The search's targets on a blind set: top-1 overall and per language. The current blind set is
 * measured against them and reported, never tuned on, so it cannot be a floor: a fresh set that
 * misses them says the search does not generalize yet. The earlier blind sets, each measured
 * blind once and never tuned on since, hold them as floors: a change that breaks one must
 * generalize better, never fit their misses. Top-3 (target 97 %) and off-site queries (target:
 * all empty) are reported until they hold.
 */
export const BLIND_FLOORS = { top1: 0.92, languageTop1: 0.85, languages: ['catalan', 'galician', 'basque', 'english'] };

const realistic = suite('realistic query set on the built sample site');
let model: LoadedModel;
let report: Report;
let heldOut: Report;
let blind: Report;
let earlierBlind: Report;

realistic.before(async () => {
  const config = parseConfig();
  model = await loadModel(config, await builtReadModel());
  report = await evaluate(model.search);
  heldOut = await evaluate(model.search, loadHeldOut());
  blind = await evaluate(model.search, loadBlind());
  earlierBlind = await evaluate(model.search, loadEarlierBlind());
  const line = (g: Report['total'], name = g.group) =>
    `  ${name.padEnd(14)} top-1 ${(100 * share(g.top1, g.answerable)).toFixed(1)} %  top-3 ${(100 * share(g.top3, g.answerable)).toFixed(1)} %  off-site empty ${g.empty}/${g.offSite}\n`;
  for (const g of [...report.groups, report.total]) process.stdout.write(line(g));
  process.stdout.write(line(heldOut.total, 'held-out'));
  process.stdout.write(line(earlierBlind.total, 'earlier blind'));
  // The blind set is reported, per kind, with its misses: nothing is tuned on it.
  for (const g of [...blind.groups, blind.total]) process.stdout.write(line(g, `blind ${g.group === 'all' ? '(all)' : g.group}`));
  const unmet = [
    share(blind.total.top1, blind.total.answerable) < BLIND_FLOORS.top1 ? `top-1 ≥ ${BLIND_FLOORS.top1 * 100} %` : '',
    share(blind.total.top3, blind.total.answerable) < 0.97 ? 'top-3 ≥ 97 %' : '',
    ...BLIND_FLOORS.languages.filter((l) => { const g = blind.groups.find((x) => x.group === l); return !g || share(g.top1, g.answerable) < BLIND_FLOORS.languageTop1; }).map((l) => `${l} ≥ ${BLIND_FLOORS.languageTop1 * 100} %`),
    blind.total.empty < blind.total.offSite ? 'every off-site query empty' : '',
  ].filter(Boolean);
  if (unmet.length) process.stdout.write(`  blind set: targets not met: ${unmet.join(', ')}\n`);
  for (const m of blind.total.misses) process.stdout.write(`    blind miss: ${JSON.stringify(m.query)}${m.city ? ` (city ${m.city})` : ''} → ${m.got.slice(0, 3).join(', ') || '(nothing)'} (want ${m.answers.join(' | ') || 'nothing'})\n`);
});
realistic.after(async () => { await model?.close(); });

const misses = (group: string) => report.total.misses.filter((m) => report.groups.find((g) => g.group === group)?.misses.includes(m))
  .map((m) => `\n    ${JSON.stringify(m.query)} → ${m.got.slice(0, 3).join(', ') || '(nothing)'} (want ${m.answers.join(' | ') || 'nothing'})`).join('');

realistic('the blind sets: at least 150 queries each, every answer a published page, every city filter a city', () => {
  for (const set of [loadBlind(), loadEarlierBlind()]) {
    const all = set.flatMap((g) => g.queries);
    assert.ok(all.length >= 150, `${all.length} queries`);
    for (const q of all) for (const a of q.answers) assert.ok(model.byPath.has(a), `${q.query}: ${a} is not a page`);
  }
});

realistic('the set is large enough and every answer is a published page', () => {
  const groups = loadQuerySet();
  const all = groups.flatMap((g) => g.queries);
  assert.ok(all.filter((q) => q.answers.length > 0).length >= 250, 'at least 250 queries with answers');
  assert.ok(all.filter((q) => q.answers.length === 0).length >= 30, 'at least 30 off-site queries');
  for (const q of all) for (const a of q.answers) assert.ok(model.byPath.has(a), `${q.query}: ${a} is not a page`);
});

for (const group of loadQuerySet().map((g) => g.group)) {
  realistic(`${group}: top-1 ≥ ${FLOORS.groupTop1 * 100} %, every off-site query empty`, () => {
    const g = report.groups.find((x) => x.group === group)!;
    if (g.answerable > 0) assert.ok(share(g.top1, g.answerable) >= FLOORS.groupTop1, `top-1 ${g.top1}/${g.answerable}; misses:${misses(group)}`);
    assert.is(g.empty, g.offSite, `off-site queries that found pages:${misses(group)}`);
  });
}

for (const group of LANGUAGES.groups) {
  realistic(`${group}: at least ${LANGUAGES.queries} queries, top-1 ≥ ${LANGUAGES.top1 * 100} %, every off-site query empty`, () => {
    const g = report.groups.find((x) => x.group === group);
    assert.ok(g !== undefined, `queries/${group}.json is missing`);
    assert.ok(g.answerable + g.offSite >= LANGUAGES.queries && g.offSite > 0, `${g.answerable} + ${g.offSite} off-site queries`);
    assert.ok(share(g.top1, g.answerable) >= LANGUAGES.top1, `top-1 ${g.top1}/${g.answerable}; misses:${misses(group)}`);
    assert.is(g.empty, g.offSite, `off-site queries that found pages:${misses(group)}`);
  });
}

realistic(`overall: top-1 ≥ ${FLOORS.top1 * 100} %, top-3 ≥ ${FLOORS.top3 * 100} %`, () => {
  const t = report.total;
  assert.ok(share(t.top1, t.answerable) >= FLOORS.top1, `top-1 ${t.top1}/${t.answerable}`);
  assert.ok(share(t.top3, t.answerable) >= FLOORS.top3, `top-3 ${t.top3}/${t.answerable}`);
});

realistic(`held-out set: top-1 ≥ ${HELD_OUT_FLOOR.top1 * 100} %, every off-site query empty`, () => {
  const t = heldOut.total;
  const list = t.misses.map((m) => `\n    ${JSON.stringify(m.query)} → ${m.got.slice(0, 3).join(', ') || '(nothing)'}`).join('');
  assert.ok(t.offSite >= 15 && t.answerable >= 80, 'a held-out set of some size');
  assert.ok(share(t.top1, t.answerable) >= HELD_OUT_FLOOR.top1, `top-1 ${t.top1}/${t.answerable}; misses:${list}`);
  assert.is(t.empty, t.offSite, `off-site queries that found pages:${list}`);
});

realistic(`earlier blind sets: top-1 ≥ ${BLIND_FLOORS.top1 * 100} %, each language ≥ ${BLIND_FLOORS.languageTop1 * 100} %`, () => {
  assert.ok(share(earlierBlind.total.top1, earlierBlind.total.answerable) >= BLIND_FLOORS.top1, `top-1 ${earlierBlind.total.top1}/${earlierBlind.total.answerable}`);
  for (const language of BLIND_FLOORS.languages) {
    const g = earlierBlind.groups.find((x) => x.group === language);
    assert.ok(g !== undefined && g.answerable >= 10, `earlier blind ${language}: at least 10 queries`);
    assert.ok(share(g.top1, g.answerable) >= BLIND_FLOORS.languageTop1, `earlier blind ${language}: top-1 ${g.top1}/${g.answerable}`);
  }
});

realistic.run();
