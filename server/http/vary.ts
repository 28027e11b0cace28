/**
 * `Vary` (RFC 9110 §12.5.5) on answers written in steps: each step that chooses the
 * representation by a request header adds that header's name to what the answer already varies
 * on, once, without replacing it.
 */
import type { ServerResponse } from 'node:http';

export function addVary(res: ServerResponse, name: string): void {
  const current = res.getHeader('Vary');
  if (current === undefined) { res.setHeader('Vary', name); return; }
  const listed = String(current);
  const wanted = name.toLowerCase();
  for (const part of listed.split(',')) {
    const field = part.trim().toLowerCase();
    if (field === wanted || field === '*') return;
  }
  res.setHeader('Vary', `${listed}, ${name}`);
}
