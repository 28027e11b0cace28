/**
 * The four ways a client sees a page, asked of a running server as a client would: read_page's
 * JSON, search_pages, the page's URL with `Accept: text/markdown`, and its HTML. An edit is live
 * once a round of these shows it on every surface (`waitLive`).
 */
const API = '/wp-json/agentes/v1';
const POLL_MS = 100;

export interface Answer { status: number; text: string }

export interface Surfaces {
  readPage(pagePath: string): Promise<Answer>;
  /** Paths of the results (up to 25) and the total. */
  search(query: string): Promise<{ total: number; paths: string[] }>;
  markdown(pagePath: string): Promise<Answer>;
  html(pagePath: string): Promise<Answer>;
}

export function createSurfaces(opts: { origin: string }): Surfaces {
  const get = async (target: string, accept: string): Promise<Answer> => {
    const res = await fetch(opts.origin + target, { headers: { Accept: accept } });
    return { status: res.status, text: await res.text() };
  };
  return {
    readPage: (p) => get(`${API}/read_page?url=${encodeURIComponent(p)}`, 'application/json'),
    async search(query) {
      const res = await get(`${API}/search_pages?query=${encodeURIComponent(query)}&limit=25`, 'application/json');
      if (res.status !== 200) throw new Error(`search_pages ${query}: ${res.status} ${res.text.slice(0, 200)}`);
      const body = JSON.parse(res.text) as { total: number; results: { url: string }[] };
      return { total: body.total, paths: body.results.map((r) => new URL(r.url).pathname) };
    },
    markdown: (p) => get(p, 'text/markdown'),
    html: (p) => get(p, 'text/html'),
  };
}

/** Each surface's name → whether it shows the edit. */
export type Probe = () => Promise<Record<string, boolean>>;

export interface Live {
  /** From `since` to the first round where every surface showed the edit; NaN when none did. */
  liveMs: number;
  /** Each surface's first time showing it, from `since`. */
  firstSeenMs: Record<string, number>;
}

/**
 * Polls `probe` until a round has every surface true, or until `graceMs` after `done` settles
 * (the build's end: the server may still be loading what it published).
 */
export async function waitLive(opts: { probe: Probe; since: number; done: Promise<unknown>; graceMs: number }): Promise<Live> {
  let doneAt: number | undefined;
  // Settled either way; a failure is the caller's to report.
  const settled = () => { doneAt = performance.now(); };
  opts.done.then(settled, settled);
  const firstSeenMs: Record<string, number> = {};
  for (;;) {
    const round = await opts.probe().catch(() => ({} as Record<string, boolean>));
    const at = performance.now() - opts.since;
    for (const [name, shown] of Object.entries(round)) if (shown && firstSeenMs[name] === undefined) firstSeenMs[name] = at;
    const values = Object.values(round);
    if (values.length > 0 && values.every(Boolean)) return { liveMs: at, firstSeenMs };
    if (doneAt !== undefined && performance.now() - doneAt > opts.graceMs) return { liveMs: Number.NaN, firstSeenMs };
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
