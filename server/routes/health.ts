/**
 * GET /healthz (the process is serving) and GET /readyz (observability/readiness.ts): JSON,
 * `Cache-Control: no-store`, outside every quota. They are answered before the Host check
 * (main.ts): a load balancer or an orchestrator probes a process by its address, under a Host that
 * is none of the site's names.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log.ts';
import { methodNotAllowed } from '../errors.ts';
import { sendError } from '../http/error-response.ts';
import { sendJson } from '../http/json.ts';
import { readiness, type ReadinessDeps } from '../observability/readiness.ts';
import { HEALTH_PATH, READY_PATH } from '../paths.ts';

const ALIVE = Buffer.from(JSON.stringify({ status: 'ok' }));
const NO_STORE = { 'Cache-Control': 'no-store' };

/** The probes' handler: true when it answered `req` (its path is a probe's). */
export function createProbes(deps: ReadinessDeps & { log: Logger }): (req: IncomingMessage, res: ServerResponse) => boolean {
  const answer = (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, methodNotAllowed('GET, HEAD'), deps.log, ['Cache-Control', 'no-store']);
      return;
    }
    if (path === HEALTH_PATH) { sendJson(res, 200, ALIVE, NO_STORE); return; }
    const { httpStatus, body } = readiness(deps);
    sendJson(res, httpStatus, JSON.stringify(body), NO_STORE);
  };
  return (req, res) => {
    const url = req.url ?? '/';
    // Every request passes here first: the API's and MCP's paths are told apart by one character.
    const c = url.charCodeAt(1);
    if (c !== 104 /* h */ && c !== 114 /* r */) return false;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (path !== HEALTH_PATH && path !== READY_PATH) return false;
    answer(req, res, path);
    return true;
  };
}
