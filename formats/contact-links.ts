/** Link targets for the company's contact channels, as the site's pages and the search results page write them. */

/** "+34 910 573 842" → "tel:+34910573842" */
export function phoneHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/**
 * "+34 634 573 842" → "https://wa.me/34634573842" (WhatsApp's click-to-chat form: digits only),
 * with `text` the message the chat opens with.
 */
export function whatsappHref(number: string, text?: string): string {
  const chat = `https://wa.me/${number.replace(/\D/g, '')}`;
  return text === undefined ? chat : `${chat}?text=${encodeURIComponent(text)}`;
}

/** "+34 910 573 842" with no-break spaces: a number is read and dialled whole, never split across lines. */
export function unbroken(text: string): string {
  return text.replace(/ /g, '\u00a0');
}
