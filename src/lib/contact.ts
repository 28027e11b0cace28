/** Link targets for the company's contact channels. */

/** "+34 910 573 842" → "tel:+34910573842" */
export function phoneHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** "+34 634 573 842" → "https://wa.me/34634573842" (WhatsApp's click-to-chat form: digits only). */
export function whatsappHref(number: string): string {
  return `https://wa.me/${number.replace(/\D/g, '')}`;
}

/** "+34 910 573 842" with no-break spaces: a number is read and dialled whole, never split across lines. */
export function unbroken(text: string): string {
  return text.replace(/ /g, '\u00a0');
}
