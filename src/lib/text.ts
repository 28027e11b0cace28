/** Small Spanish text helpers and a deterministic chooser, so generated pages vary but builds repeat. */

/** FNV-1a: stable across builds and platforms, enough to spread template choices. */
export function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function pick<T>(key: string, options: readonly T[]): T {
  if (options.length === 0) throw new Error(`pick("${key}") from an empty list`);
  return options[hash(key) % options.length]!;
}

/** `count` items starting at a key-dependent offset, wrapping around. */
export function rotate<T>(key: string, items: readonly T[], count: number): T[] {
  if (items.length === 0) return [];
  const start = hash(key) % items.length;
  const n = Math.min(count, items.length);
  return Array.from({ length: n }, (_, i) => items[(start + i) % items.length]!);
}

/** "a", "a y b", "a, b y c" (the Spanish list conjunction; "e" before an i- sound). */
export function listEs(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  const last = items[items.length - 1]!;
  const conj = /^h?i(?![aeiouáéó])/i.test(last) ? ' e ' : ' y ';
  return items.slice(0, -1).join(', ') + conj + last;
}

export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Agreement helpers for "los fontaneros colaboradores" / "las empresas de reformas colaboradoras". */
export function articlePlural(gender: 'm' | 'f'): string {
  return gender === 'f' ? 'las' : 'los';
}

export function partner(gender: 'm' | 'f', plural: boolean): string {
  if (gender === 'f') return plural ? 'colaboradoras' : 'colaboradora';
  return plural ? 'colaboradores' : 'colaborador';
}
