const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The `highlight` field of places and businesses is HTML (the widget inserts it as it is): the
 * matched parts in our own <em> tags, every other character of the text escaped by this.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}
