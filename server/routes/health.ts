/**
 * GET /healthz (the process is serving) and GET /readyz (observability/readiness.ts): JSON,
 * `Cache-Control: no-store`, outside every quota. They are answered before the Host check
 * (routes/table.ts): a load balancer or an orchestrator probes a process by its address, under a Host that
 * is none of the site's names.
 */
import type { Logger } from '../log.ts';
import { methodNotAllowed } from '../errors.ts';
import { sendError } from '../http/error-response.ts';
import { sendJson } from '../http/json.ts';
import { readiness, type ReadinessDeps } from '../observability/readiness.ts';
import { HEALTH_PATH } from '../paths.ts';
import type { RouteHandler } from './table.ts';

const ALIVE = Buffer.from(JSON.stringify({ status: 'ok' }));
const NO_STORE = { 'Cache-Control': 'no-store' };

/** The probes' handler, for a request the front door matched to a probe (routes/table.ts). */
export function createProbes(deps: ReadinessDeps & { log: Logger }): RouteHandler {
  return (req, res, { path }) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, methodNotAllowed('GET, HEAD'), deps.log, ['Cache-Control', 'no-store']);
      return;
    }
    if (path === HEALTH_PATH) { sendJson(res, 200, ALIVE, NO_STORE); return; }
    const { httpStatus, body } = readiness(deps);
    sendJson(res, httpStatus, JSON.stringify(body), NO_STORE);
  };
}
