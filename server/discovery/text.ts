/** Small wording helpers shared by the Markdown and text documents (Spanish). */

/** "por minuto" for a 60 s window, "cada 30 segundos" otherwise. */
export const perWindow = (seconds: number): string => (seconds === 60 ? 'por minuto' : `cada ${seconds} segundos`);

/** Whole hours or days when exact: 3600 → "1 hora", 15552000 → "180 días". */
export function duration(seconds: number): string {
  const unit = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (seconds % 86400 === 0) return unit(seconds / 86400, 'día', 'días');
  if (seconds % 3600 === 0) return unit(seconds / 3600, 'hora', 'horas');
  if (seconds % 60 === 0) return unit(seconds / 60, 'minuto', 'minutos');
  return unit(seconds, 'segundo', 'segundos');
}

export const code = (s: string | number): string => '`' + s + '`';

/** Host of a URL, for titles. */
export const hostOf = (url: string): string => new URL(url).host;
