/**
 * The rich text of knowledge answers: plain text lines with three marks, parsed into nodes that the widget
 * and the console draw as elements (never as HTML, so an answer cannot inject markup):
 *   **bold**            [link text](https://…)            ![alt](https://… or /res/…)
 * A link or image whose URL is not http(s) or a same-site /res/ path stays plain text.
 */

export type RichNode =
  | { t: 'text'; v: string }
  | { t: 'b'; v: string }
  | { t: 'a'; v: string; href: string }
  | { t: 'img'; alt: string; src: string }
  | { t: 'br' };

const SAFE_URL = /^(https?:\/\/[^\s<>"']+|\/res\/[^\s<>"']+)$/i;
export const isSafeRichUrl = (url: string): boolean => SAFE_URL.test(url);

// One pass over the marks; whatever is between them is text.
const MARKS =
  /!\[([^\]\n]{0,200})\]\(([^)\s]{1,2000})\)|\[([^\]\n]{1,200})\]\(([^)\s]{1,2000})\)|\*\*([^*\n]{1,500})\*\*/g;

/** Nodes of one answer; line breaks become `br` nodes. */
export function parseRichText(src: string): RichNode[] {
  const out: RichNode[] = [];
  const text = (v: string) => {
    if (!v) return;
    const lines = v.split('\n');
    lines.forEach((l, i) => {
      if (i > 0) out.push({ t: 'br' });
      if (l) out.push({ t: 'text', v: l });
    });
  };
  const s = src.replace(/\r\n?/g, '\n');
  let last = 0;
  for (const m of s.matchAll(MARKS)) {
    const at = m.index;
    text(s.slice(last, at));
    last = at + m[0].length;
    if (m[2] !== undefined) {
      if (isSafeRichUrl(m[2])) out.push({ t: 'img', alt: m[1] ?? '', src: m[2] });
      else text(m[0]);
    } else if (m[4] !== undefined) {
      if (isSafeRichUrl(m[4])) out.push({ t: 'a', v: m[3] ?? m[4], href: m[4] });
      else text(m[0]);
    } else out.push({ t: 'b', v: m[5] ?? '' });
  }
  text(s.slice(last));
  return out;
}

/** The words of an answer without its marks (previews, search): link texts and image alts stay. */
export function richTextPlain(src: string): string {
  return parseRichText(src)
    .map((n) => (n.t === 'br' ? '\n' : n.t === 'img' ? (n.alt ? `[${n.alt}]` : '') : n.v))
    .join('');
}
