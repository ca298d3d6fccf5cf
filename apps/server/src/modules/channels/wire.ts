/**
 * Parsing of platform bodies without losing data: WeChat XML (values kept as strings, so a 64-bit MsgId
 * stays exact) and JSON whose long integers are read as strings (JSON.parse would round
 * 4561255354251345929 to 4561255354251346000). Malformed or truncated input throws WireError.
 */
export class WireError extends Error {}

export type XmlValue = string | XmlNode;
export interface XmlNode {
  [tag: string]: XmlValue;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const unescape = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) =>
    e.startsWith('#x')
      ? String.fromCodePoint(parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : ENTITIES[e]!,
  );

/** The children of the root element (`<xml>…</xml>`); repeated tags keep the last value. */
export function parseXml(text: string): XmlNode {
  let i = 0;
  const s = text.replace(/^\uFEFF/, '');
  const skipWs = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  const skipProlog = () => {
    for (;;) {
      skipWs();
      if (s.startsWith('<?', i)) {
        const end = s.indexOf('?>', i);
        if (end < 0) throw new WireError('truncated prolog');
        i = end + 2;
      } else if (s.startsWith('<!--', i)) {
        const end = s.indexOf('-->', i);
        if (end < 0) throw new WireError('truncated comment');
        i = end + 3;
      } else return;
    }
  };
  const element = (depth: number): [string, XmlValue] => {
    if (depth > 16) throw new WireError('too deep');
    if (s[i] !== '<') throw new WireError(`expected a tag at ${i}`);
    const close = s.indexOf('>', i);
    if (close < 0) throw new WireError('truncated tag');
    const head = s.slice(i + 1, close);
    const selfClosing = head.endsWith('/');
    const name = (selfClosing ? head.slice(0, -1) : head).trim().split(/\s/)[0]!;
    if (!/^[A-Za-z_][\w.-]*$/.test(name)) throw new WireError('bad tag name');
    i = close + 1;
    if (selfClosing) return [name, ''];
    const children: XmlNode = {};
    let textValue = '';
    let hasChildren = false;
    for (;;) {
      if (i >= s.length) throw new WireError(`truncated inside <${name}>`);
      if (s.startsWith('<![CDATA[', i)) {
        const end = s.indexOf(']]>', i);
        if (end < 0) throw new WireError('truncated CDATA');
        textValue += s.slice(i + 9, end);
        i = end + 3;
      } else if (s.startsWith('</', i)) {
        const end = s.indexOf('>', i);
        if (end < 0) throw new WireError('truncated closing tag');
        if (s.slice(i + 2, end).trim() !== name) throw new WireError(`mismatched </${name}>`);
        i = end + 1;
        return [name, hasChildren ? children : textValue];
      } else if (s.startsWith('<!--', i)) {
        const end = s.indexOf('-->', i);
        if (end < 0) throw new WireError('truncated comment');
        i = end + 3;
      } else if (s[i] === '<') {
        const [k, v] = element(depth + 1);
        children[k] = v;
        hasChildren = true;
      } else {
        const next = s.indexOf('<', i);
        if (next < 0) throw new WireError(`truncated inside <${name}>`);
        textValue += unescape(s.slice(i, next));
        i = next;
      }
    }
  };
  skipProlog();
  const [, root] = element(0);
  skipWs();
  if (i !== s.length) throw new WireError('content after the root element');
  if (typeof root === 'string') return {};
  return root;
}

/** A string field of a parsed XML node ('' when absent or not text). */
export const xmlText = (n: XmlNode, tag: string): string => {
  const v = n[tag];
  return typeof v === 'string' ? v : '';
};

const cdata = (v: string) => `<![CDATA[${v.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;

/** `<xml>` with one CDATA element per entry (numbers as bare text). */
export function buildXml(fields: Record<string, string | number>): string {
  const parts = Object.entries(fields).map(([k, v]) =>
    typeof v === 'number' ? `<${k}>${v}</${k}>` : `<${k}>${cdata(v)}</${k}>`,
  );
  return `<xml>${parts.join('')}</xml>`;
}

/** Integers longer than this many digits are read as strings (2^53 has 16 digits). */
const SAFE_DIGITS = 15;

/**
 * JSON.parse, except that integer literals with more than 15 digits become strings. The text is scanned
 * once outside string literals, so digits inside strings are untouched.
 */
export function parseJsonExact(text: string): unknown {
  let out = '';
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      continue;
    }
    if ((c >= 48 && c <= 57) || c === 45) {
      let j = i + (c === 45 ? 1 : 0);
      while (j < text.length && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      const digits = j - i - (c === 45 ? 1 : 0);
      const nextC = text[j];
      const isInteger = nextC !== '.' && nextC !== 'e' && nextC !== 'E';
      if (digits > SAFE_DIGITS && isInteger) {
        out += `${text.slice(last, i)}"${text.slice(i, j)}"`;
        last = j;
      }
      i = j - 1;
    }
  }
  out += text.slice(last);
  try {
    return JSON.parse(out) as unknown;
  } catch (err) {
    throw new WireError(`bad JSON: ${(err as Error).message}`);
  }
}

/** A JSON object from a body, or WireError. */
export function parseJsonObject(text: string): Record<string, unknown> {
  const v = parseJsonExact(text);
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new WireError('expected a JSON object');
  return v as Record<string, unknown>;
}

/** A value of a parsed JSON object as a string ('' when absent). */
export const jsonText = (o: Record<string, unknown> | undefined, key: string): string => {
  const v = o?.[key];
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';
};
