/** Text written into HTML: in element content and in quoted attribute values alike. */
const SPECIAL = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(SPECIAL, (c) => ENTITIES[c]!);
