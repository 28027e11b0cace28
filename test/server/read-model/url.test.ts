import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { LoadedModel, LoadedPage } from '../../../server/read-model/types.ts';
import { createPageResolver } from '../../../server/read-model/url.ts';

const paths: Record<string, string> = {
  '/': 'inicio',
  '/servicios/fontaneria/': 'fontaneria',
  '/servicios/fontaneria/madrid/': 'fontaneria-madrid',
  '/servicios/': 'servicios-indice',
  '/aviso-legal/': 'aviso-legal',
};
const pages = Object.entries(paths).map(([path, slug]) => ({ path, slug }) as LoadedPage);
const model = {
  byPath: new Map(pages.map((p) => [p.path, p])),
  bySlug: new Map(pages.map((p) => [p.slug, p])),
} as unknown as LoadedModel;

const at = (siteUrl: string) => {
  const resolve = createPageResolver(siteUrl);
  return (input: string) => resolve(model, input)?.path ?? null;
};
const find = at('https://www.example.es');

test('full URLs of this site: scheme, host case, default ports, trailing slash, query, fragment', () => {
  for (const input of [
    'https://www.example.es/servicios/fontaneria/madrid/',
    'https://www.example.es/servicios/fontaneria/madrid',
    'https://WWW.Example.ES/servicios/fontaneria/madrid',
    'https://www.example.es:443/servicios/fontaneria/madrid/',
    'http://www.example.es/servicios/fontaneria/madrid/',
    'http://www.example.es:80/servicios/fontaneria/madrid/',
    'HTTPS://www.example.es/Servicios/Fontaneria/Madrid/',
    'https://www.example.es./servicios/fontaneria/madrid/',
    'https://www.example.es/servicios/fontaneria/madrid/?utm_source=x#precios',
    'https://www.example.es/servicios//fontaneria///madrid',
    'https://www.example.es/servicios/fontaneria/madrid/index.html',
    '//www.example.es/servicios/fontaneria/madrid/',
    'www.example.es/servicios/fontaneria/madrid',
    '  https://www.example.es/servicios/fontaneria/madrid/  ',
  ]) assert.is(find(input), '/servicios/fontaneria/madrid/', input);
  assert.is(find('https://www.example.es'), '/');
  assert.is(find('https://www.example.es/'), '/');
  assert.is(find('https://www.example.es?x=1'), '/');
});

test('site paths and slugs', () => {
  assert.is(find('/servicios/fontaneria/'), '/servicios/fontaneria/');
  assert.is(find('/servicios/fontaneria'), '/servicios/fontaneria/');
  assert.is(find('servicios/fontaneria/madrid'), '/servicios/fontaneria/madrid/');
  assert.is(find('/'), '/');
  assert.is(find('fontaneria-madrid'), '/servicios/fontaneria/madrid/');
  assert.is(find('Fontaneria-Madrid'), '/servicios/fontaneria/madrid/');
  assert.is(find('fontaneria-madrid/'), '/servicios/fontaneria/madrid/');
  assert.is(find('fontaneria-madrid?x#y'), '/servicios/fontaneria/madrid/');
  assert.is(find('inicio'), '/');
  assert.is(find('servicios'), '/servicios/', 'a one-segment path written as a slug');
  assert.is(find('aviso-legal'), '/aviso-legal/');
});

test('percent-encoding is decoded exactly once', () => {
  assert.is(find('/servicios/fontaneria/madrid%2F'), '/servicios/fontaneria/madrid/');
  assert.is(find('%2Fservicios%2Ffontaneria%2F'), '/servicios/fontaneria/');
  assert.is(find('/servicios/fontaner%69a/'), '/servicios/fontaneria/');
  assert.is(find('/servicios/fontaner%2569a/'), null, 'double-encoded stays encoded');
});

test('other hosts, schemes, ports and credentials are not this site', () => {
  for (const input of [
    'https://evil.example/servicios/fontaneria/',
    'https://www.example.es.evil.example/servicios/fontaneria/',
    'https://www.example.es:8443/servicios/fontaneria/',
    'https://www.example.es@evil.example/servicios/fontaneria/',
    'https://user:pw@www.example.es/servicios/fontaneria/',
    'ftp://www.example.es/servicios/fontaneria/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,hola',
    'https:/www.example.es/servicios/fontaneria/',
    '//evil.example/servicios/fontaneria/',
    'evil.example/servicios/fontaneria/',
    'https://[::1]/servicios/fontaneria/',
  ]) assert.is(find(input), null, input);
});

test('traversal, NUL, control characters and bad encodings are refused (never thrown)', () => {
  for (const input of [
    '../servicios/fontaneria/',
    '/servicios/../aviso-legal/',
    '/servicios/fontaneria/../../aviso-legal/',
    '/servicios/%2e%2e/aviso-legal/',
    '/servicios/%2E%2E/aviso-legal/',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/servicios/./fontaneria/',
    'https://www.example.es/servicios/%2e%2e/aviso-legal/',
    '/servicios/fontaneria/%00',
    '/servicios/fontaneria\u0000/',
    '/servicios/fontaneria/%0a',
    '\\servicios\\fontaneria\\',
    '/servicios/%5cfontaneria/',
    '/servicios/%E0%A4%A/',
    '%',
    '/%ff/',
    '..',
    '.',
    '',
    '   ',
    '/etc/passwd',
    '/servicios/fontaneria/madrid/index.php',
  ]) assert.is(find(input), null, JSON.stringify(input));
});

test('a site below a path prefix and on a non-default port', () => {
  const sub = at('http://localhost:4321/sitio');
  assert.is(sub('http://localhost:4321/sitio/servicios/fontaneria/'), '/servicios/fontaneria/');
  assert.is(sub('http://LOCALHOST:4321/sitio/servicios/fontaneria'), '/servicios/fontaneria/');
  assert.is(sub('localhost:4321/sitio/aviso-legal'), '/aviso-legal/');
  assert.is(sub('/sitio/aviso-legal/'), '/aviso-legal/');
  assert.is(sub('http://localhost/sitio/aviso-legal/'), null, 'another port');
  assert.is(sub('http://localhost:4321/otro/aviso-legal/'), null, 'outside the site path');
});

test('answers are remembered per model: after a publish the same input finds the new build\'s page', () => {
  const resolve = createPageResolver('https://www.example.es');
  const before = resolve(model, 'fontaneria');
  assert.is(resolve(model, 'fontaneria'), before);
  const moved = { path: '/servicios/fontaneria-nueva/', slug: 'fontaneria' } as LoadedPage;
  const next = { byPath: new Map([[moved.path, moved]]), bySlug: new Map([[moved.slug, moved]]) } as unknown as LoadedModel;
  assert.is(resolve(next, 'fontaneria'), moved);
  assert.is(resolve(next, '/servicios/fontaneria/'), null, 'gone from the new build');
  assert.is(resolve(model, '/servicios/fontaneria/'), before, 'the old build still answers its own');
});

test.run();
