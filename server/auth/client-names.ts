/**
 * The `client_name` of each client as registered, read from the store once per process: a
 * registration never changes. A failed read is tried again next time.
 */
import type { Store } from '../stores/types.ts';
import { clientKey } from './clients.ts';

/** Client names kept per process. */
const NAMES = 4096;

export type ClientNames = (clientId: string) => Promise<{ client_name?: string }>;

export function createClientNames(options: { store: Store }): ClientNames {
  const names = new Map<string, Promise<{ client_name?: string }>>();
  return (clientId) => {
    let name = names.get(clientId);
    if (name === undefined) {
      name = options.store.get(clientKey(clientId)).then(clientName);
      name.catch(() => names.delete(clientId));
      if (names.size >= NAMES) names.clear();
      names.set(clientId, name);
    }
    return name;
  };
}

function clientName(raw: string | null): { client_name?: string } {
  if (raw === null) return {};
  try {
    const name = (JSON.parse(raw) as { client_name?: unknown }).client_name;
    return typeof name === 'string' ? { client_name: name } : {};
  } catch {
    return {};
  }
}
