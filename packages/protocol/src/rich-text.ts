/**
 * The rich text of knowledge answers: plain text lines with three marks, parsed into nodes that the widget
 * and the console draw as elements (never as HTML, so an answer cannot inject markup):
 *   **bold**            [link text](https://…)            ![alt](https://… or /res/…)
 * A link or image whose URL is not http(s) stays plain text (an answer's images must be public: visitors
 * cannot open the console's uploads).
 */

export type RichNode =
  | { t: 'text'; v: string }
  | { t: 'b'; v: string }
  | { t: 'a'; v: string; href: string }
  | { t: 'img'; alt: string; src: string }
  | { t: 'br' };

const SAFE_URL = /^https?:\/\/[^\s<>"']+$/i;
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

/**
 * The words of an answer without its marks (previews, search): link texts and image alts stay. With
 * `urls` (an answer an agent sends as a plain chat line) links and images keep their address too.
 */
export function richTextPlain(src: string, o: { urls?: boolean } = {}): string {
  return parseRichText(src)
    .map((n) => {
      if (n.t === 'br') return '\n';
      if (n.t === 'img') return o.urls ? n.src : n.alt ? `[${n.alt}]` : '';
      if (n.t === 'a') return o.urls && n.v !== n.href ? `${n.v} ${n.href}` : n.v;
      return n.v;
    })
    .join('');
}

/** A createElement of either UI library (React's or Preact's): tag, props, children. */
export type ElementFactory<E> = (
  tag: string,
  props: Record<string, unknown> | null,
  ...children: unknown[]
) => E;

/**
 * An answer as elements of the caller's UI library (console: React, widget: Preact): text nodes, strong,
 * links opening in a new tab without the opener, lazy images. Keys are the node positions.
 */
export function richTextElements<E>(src: string, h: ElementFactory<E>): Array<E | string> {
  return parseRichText(src).map((n, key) => {
    if (n.t === 'br') return h('br', { key });
    if (n.t === 'b') return h('strong', { key }, n.v);
    if (n.t === 'a') return h('a', { key, href: n.href, target: '_blank', rel: 'noopener noreferrer' }, n.v);
    if (n.t === 'img') return h('img', { key, src: n.src, alt: n.alt, loading: 'lazy' });
    return n.v;
  });
}
