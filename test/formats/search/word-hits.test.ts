/** A query word's answer from a build's index: which pages, where they matched, and their body scores. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSearchIndex, type IndexPage } from '../../../build-scripts/search-index/search-index.ts';
import { readIndexFile } from '../../../formats/search/index-file.ts';
import { HEADING, TITLE } from '../../../formats/search/match-flags.ts';
import { PostingsFile } from '../../../formats/search/postings.ts';
import { BODY, bodyScore, WordHitsMaker } from '../../../formats/search/word-hits.ts';

const filler = (n: number) => Array.from({ length: n }, (_, i) => `relleno${i}`).join(' ');
const page = (p: string, title: string, markdown: string): IndexPage => ({ path: p, title, city: '', description: '', markdown });

const PAGES = [
  page('/a/', 'Uno', `El fontanero llega. ${filler(40)}`),
  page('/b/', 'Dos', `El fontanero llega y los fontaneros trabajan. ${filler(40)}`),
  page('/c/', 'Tres', `El fontanero llega. ${filler(400)}`),
  page('/d/', 'Fontanería urgente', `Nada que ver. ${filler(40)}`),
  page('/e/', 'Cinco', `## Fontaneros de guardia\n\nNada más. ${filler(40)}`),
  page('/f/', 'Seis', `Un dentista dentro. ${filler(40)}`),
];

test('pages of the stem family, flagged where they matched, scored by mentions and length', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-hits-'));
  try {
    await buildSearchIndex({ pages: PAGES, outDir: dir, siteUrl: 'https://agentes.test' });
    const file = await readIndexFile(dir);
    const postings = await PostingsFile.open(dir, file);
    const { titles, heads } = file.stems();
    const maker = new WordHitsMaker({ postings, stemIds: file.stemIds(), titles, heads, tokens: (d) => file.tokens(d), averageTokens: file.averageTokens, pages: file.size });
    const hits = maker.make('fontanero');
    const by = new Map(Array.from(hits.docs, (d, k) => [file.path(d), { flags: hits.flags[k]!, score: bodyScore(hits, k) }]));
    assert.equal([...by.keys()], ['/a/', '/b/', '/c/', '/d/', '/e/']);
    assert.ok(hits.docs.every((d, k) => k === 0 || hits.docs[k - 1]! < d), 'pages ascending, a title-only page among them');
    assert.equal(Array.from(hits.mentions), [1, 2, 1, 0, 1], 'mentions of the family, title-only none');
    assert.is(by.get('/a/')!.flags, BODY);
    assert.is(by.get('/d/')!.flags, TITLE, 'a title match alone');
    assert.is(by.get('/d/')!.score, 0);
    assert.is(by.get('/e/')!.flags, HEADING | BODY, 'a heading is in the text too');
    assert.ok(by.get('/b/')!.score > by.get('/a/')!.score, 'two mentions above one');
    assert.ok(by.get('/a/')!.score > by.get('/c/')!.score, 'a short page above a long one');
    assert.is(hits.top, by.get('/b/')!.score);
    assert.equal(Array.from(hits.topical, (d) => file.path(d)), ['/d/', '/e/']);
    assert.is(maker.make('dentista').count, 1, '"dentista" is not "dentro"');
    assert.is(maker.make('zzzz').count, 0);
    postings.close();
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test.run();
