import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RESULTS_SLOT } from '../../../formats/search-page.ts';
import { parseShell } from '../../../server/search-page/shell.ts';

/** The shape src/pages/buscar.astro builds, cut down. */
const SHELL = '<html><head><title>Buscar | Aviso Hogar</title></head><body><header><form role="search">'
  + '<input id="sb-q" type="search" name="q" maxlength="200">'
  + '<select id="sb-c" name="ciudad"><option>Todas<option>A Coruña<option>Las Palmas<option>Madrid</select><button>Buscar</button></form></header>'
  + `<main><div id="resultados">${RESULTS_SLOT}</div></main></body></html>`;

test('a request fills the title, the query field, the city chosen and the results, and nothing else', () => {
  const html = parseShell(SHELL).render({ titlePrefix: '«grifo» · ', query: 'grifo', city: 'a-coruna', results: '<h1>Resultados</h1>' });
  assert.is(html, '<html><head><title>«grifo» · Buscar | Aviso Hogar</title></head><body><header><form role="search">'
    + '<input id="sb-q" type="search" name="q" maxlength="200" value="grifo">'
    + '<select id="sb-c" name="ciudad"><option>Todas<option selected>A Coruña<option>Las Palmas<option>Madrid</select><button>Buscar</button></form></header>'
    + '<main><div id="resultados"><h1>Resultados</h1></div></main></body></html>');
});

test('the query is escaped in the title and the field; no query, no value; an unknown city chooses none', () => {
  const shell = parseShell(SHELL);
  const html = shell.render({ titlePrefix: '«"><script>» · ', query: '"><script>', city: 'las-palmas', results: '' });
  assert.ok(html.includes('<title>«&quot;&gt;&lt;script&gt;» · Buscar'), html);
  assert.ok(html.includes('name="q" maxlength="200" value="&quot;&gt;&lt;script&gt;">'), html);
  assert.ok(html.includes('<option selected>Las Palmas<option>Madrid'), html);
  const empty = shell.render({ titlePrefix: '', query: '', city: 'narnia', results: '' });
  assert.ok(empty.includes('maxlength="200"><select'), empty);
  assert.not.ok(empty.includes('selected'), empty);
});

test('a shell missing a place to fill, or with them out of order, is refused naming it', () => {
  const refused = (html: string) => { try { parseShell(html); return ''; } catch (err) { return (err as Error).message; } };
  assert.match(refused(SHELL.replace('<title>', '<tytle>')), '<title>');
  assert.match(refused(SHELL.replace('name="q"', 'name="query"')), '<input name="q">');
  assert.match(refused(SHELL.replace('maxlength="200"', 'value="x"')), 'fills its query field already');
  assert.match(refused(SHELL.replace('name="ciudad"', 'name="city"')), '<select name="ciudad">');
  assert.match(refused(SHELL.replace(RESULTS_SLOT, '')), RESULTS_SLOT);
  assert.match(refused(SHELL.replace(/<option>[^<]*/g, '')), 'lists no city');
  assert.match(refused(`<main>${RESULTS_SLOT}</main>` + SHELL.replace(RESULTS_SLOT, '')), 'out of order');
});

test.run();
