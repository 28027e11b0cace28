/**
 * The sandbox page's script (src/pages/api/sandbox.astro): runs each form with fetch and shows the
 * status line, the headers the API exposes (RateLimit…), the JSON and the same request as curl.
 * A search result's URL, clicked, fills read_page and runs it. Everything is written with
 * textContent: page titles and excerpts never become markup.
 */

/** Reason phrases in Spanish; fetch over HTTP/2 gives no statusText. */
const REASONS: Record<number, string> = {
  200: 'OK', 304: 'No modificado', 400: 'Petición incorrecta', 401: 'No autorizado', 403: 'Prohibido',
  404: 'No encontrado', 405: 'Método no permitido', 429: 'Demasiadas peticiones', 500: 'Error interno',
  503: 'Servicio no disponible',
};

interface SearchResult { title: string; url: string; city: string; excerpt: string }

const isSearchResponse = (v: unknown): v is { results: SearchResult[]; next_cursor: string | null } =>
  typeof v === 'object' && v !== null && Array.isArray((v as { results?: unknown }).results);
const isPage = (v: unknown): v is { markdown: string; truncated: boolean; next_offset?: number | null; version?: string } =>
  typeof v === 'object' && v !== null && typeof (v as { markdown?: unknown }).markdown === 'string';

function required<T extends Element>(root: ParentNode, selector: string): T {
  const el = root.querySelector<T>(selector);
  if (!el) throw new Error(`sandbox: missing ${selector}`);
  return el;
}

/** The request as a shell command, the token masked. */
function curlOf(url: string, bearer: boolean): string {
  return `curl -i "${url}"${bearer ? ' \\\n  -H "Authorization: Bearer ACCESS_TOKEN"' : ''}`;
}

function init(root: HTMLElement): void {
  const headerNames = (root.dataset.headers ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  const forms = new Map<string, HTMLFormElement>();
  for (const form of root.querySelectorAll<HTMLFormElement>('form[data-op]')) forms.set(form.dataset.op ?? '', form);
  const panel = {
    status: required<HTMLElement>(root, '[data-status]'),
    body: required<HTMLElement>(root, '[data-body]'),
    request: required<HTMLElement>(root, '[data-request]'),
    headers: required<HTMLElement>(root, '[data-headers-rows]'),
    results: required<HTMLElement>(root, '[data-results]'),
    list: required<HTMLElement>(root, '[data-results-list]'),
    next: required<HTMLButtonElement>(root, '[data-next]'),
    markdown: required<HTMLElement>(root, '[data-markdown]'),
    markdownText: required<HTMLElement>(root, '[data-markdown-text]'),
    json: required<HTMLElement>(root, '[data-json]'),
    curl: required<HTMLElement>(root, '[data-curl]'),
    answer: required<HTMLElement>(root, '[data-answer]'),
  };
  // On a narrow screen the answer sits below all four forms (one column): bring it into view.
  const oneColumn = window.matchMedia('(max-width: 60rem)');
  const reveal = (el: HTMLElement): void => {
    const top = el.getBoundingClientRect().top;
    if (oneColumn.matches && (top < 0 || top > innerHeight / 2)) el.scrollIntoView({ block: 'start' });
  };
  // Fields only a script can fill sensibly (an empty cursor sent by a plain form is a 400).
  for (const el of root.querySelectorAll<HTMLInputElement>('[data-needs-js]')) el.disabled = false;

  let running: AbortController | null = null;

  const run = async (form: HTMLFormElement): Promise<void> => {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    const op = form.dataset.op ?? '';
    const url = new URL(form.action);
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string' && value.trim() !== '') url.searchParams.set(name, value.trim());
    }
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = form.querySelector<HTMLInputElement>('[data-bearer]')?.value.trim() ?? '';
    if (token) headers.Authorization = `Bearer ${token}`;

    const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
    if (button) button.disabled = true;
    root.setAttribute('aria-busy', 'true');
    panel.status.removeAttribute('data-ok');
    panel.status.textContent = `Enviando ${op}…`;
    const started = performance.now();
    try {
      // no-store: every try is a real request, so the quota headers shown are the live ones.
      const res = await fetch(url, { headers, cache: 'no-store', signal: controller.signal });
      const text = await res.text();
      if (controller.signal.aborted) return;
      const ms = Math.round(performance.now() - started);
      show(op, url, token !== '', res, text, ms);
    } catch (err) {
      if (controller.signal.aborted) return;
      panel.status.dataset.ok = 'false';
      panel.status.textContent = `Error de red: ${(err as Error).message}`;
      reveal(panel.answer);
    } finally {
      if (button) button.disabled = false;
      if (running === controller) {
        running = null;
        root.removeAttribute('aria-busy');
      }
    }
  };

  const show = (op: string, url: URL, bearer: boolean, res: Response, text: string, ms: number): void => {
    panel.status.dataset.ok = String(res.ok);
    panel.status.textContent = `${op}: ${res.status} ${res.statusText || REASONS[res.status] || ''} · ${ms} ms`;
    panel.request.textContent = `GET ${url.pathname}${url.search}`;
    panel.curl.textContent = curlOf(url.href, bearer);

    panel.headers.replaceChildren(...headerNames.flatMap((name) => {
      const value = res.headers.get(name);
      if (value === null) return [];
      const row = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = name;
      const td = document.createElement('td');
      td.textContent = value;
      td.dataset.header = name;
      row.append(th, td);
      return [row];
    }));

    let body: unknown = null;
    try {
      body = JSON.parse(text);
      panel.json.textContent = JSON.stringify(body, null, 2);
    } catch {
      panel.json.textContent = text;
    }

    // Search results stay listed beside the forms while their pages are read.
    if (op === 'search_pages') {
      if (res.ok && isSearchResponse(body)) showResults(body.results, body.next_cursor);
      else panel.results.hidden = true;
    }
    panel.markdown.hidden = true;
    if (res.ok && op === 'read_page' && isPage(body)) {
      const next = body.next_offset ?? null;
      panel.markdownText.textContent = body.markdown + (body.truncated ? `\n\n[… sigue: pida offset = ${next ?? '?'}, version = ${body.version ?? '?'}]` : '');
      panel.markdown.hidden = false;
    }
    panel.body.hidden = false;
    // A search's results are listed under its form; every other answer is the panel.
    reveal(op === 'search_pages' && !panel.results.hidden ? panel.results : panel.answer);
  };

  const showResults = (results: SearchResult[], nextCursor: string | null): void => {
    panel.list.replaceChildren(...results.map((r) => {
      const li = document.createElement('li');
      const title = document.createElement('strong');
      title.textContent = r.title;
      const link = document.createElement('a');
      link.className = 'result__url';
      link.href = r.url;
      link.textContent = r.url;
      link.dataset.readUrl = r.url;
      const excerpt = document.createElement('p');
      excerpt.className = 'result__excerpt';
      excerpt.textContent = r.excerpt;
      li.append(title, link, excerpt);
      return li;
    }));
    if (results.length === 0) {
      const li = document.createElement('li');
      li.textContent = 'Sin resultados. Prueba con un servicio o un problema concreto.';
      panel.list.replaceChildren(li);
    }
    panel.next.hidden = nextCursor === null;
    panel.next.dataset.cursor = nextCursor ?? '';
    panel.results.hidden = false;
  };

  const submitWith = (op: string, field: string, value: string) => {
    const form = forms.get(op);
    const input = form?.elements.namedItem(field);
    if (!form || !(input instanceof HTMLInputElement)) return;
    input.value = value;
    // Another page, or another search, starts from its beginning.
    const offset = field === 'url' ? form.elements.namedItem('offset') : null;
    if (offset instanceof HTMLInputElement) offset.value = '0';
    void run(form);
  };

  panel.list.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-read-url]');
    // A modified click (new tab, new window) opens the page itself, as a link should.
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    submitWith('read_page', 'url', link.dataset.readUrl ?? '');
  });
  panel.next.addEventListener('click', () => submitWith('search_pages', 'cursor', panel.next.dataset.cursor ?? ''));

  for (const form of forms.values()) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void run(form);
    });
    // A new search starts from its first page.
    if (form.dataset.op === 'search_pages') {
      const cursor = form.elements.namedItem('cursor');
      for (const name of ['query', 'city', 'limit']) {
        (form.elements.namedItem(name) as HTMLElement | null)?.addEventListener('change', () => { if (cursor instanceof HTMLInputElement) cursor.value = ''; });
      }
    }
  }
}

const root = document.querySelector<HTMLElement>('[data-sandbox]');
if (root) init(root);
