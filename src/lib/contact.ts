/** Link targets and labels for the company's contact channels (defined with the search results page's, in formats/). */
export { phoneHref, unbroken, whatsappHref } from '../../formats/contact-links.ts';
