/**
 * The notice body's HTML, sanitised on the server by an allow-list (docs/product.md#notices).
 *
 * The input is read by a small tokenizer and the output is **rebuilt** from its tokens, never
 * copied: text is decoded and escaped again, a tag is written only when it is on the list, with
 * only its listed attributes, each value decoded, checked and escaped. So nothing the list does
 * not name (scripts, event attributes, styles, javascript: or data: addresses, comments, unknown
 * tags) can reach the output, however it is spelt. Tags are closed in order, so the result nests.
 */
import { IMAGE_URL_PATTERN } from '@wuye/contract';

const ALLOWED = new Set([
  'p',
  'div',
  'br',
  'hr',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'h1',
  'h2',
  'h3',
  'h4',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'blockquote',
]);
const VOID = new Set(['br', 'hr', 'img']);
/** dropped with everything inside them */
const DROP_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'template',
  'noscript',
  'noembed',
  'noframes',
  'textarea',
  'select',
  'svg',
  'math',
  'title',
  'head',
  'xmp',
  'plaintext',
  'applet',
]);

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };

/** Decodes the character references a browser would (named ones we know, decimal, hex), so checks see what runs. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);?/gi, (m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    const named = NAMED[ref.toLowerCase()];
    return named ?? m;
  });
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** A link's address: http(s), mailto, tel, or a path of ours; anything else (javascript:, data:, vbscript:, //host) is refused. */
export function safeHref(raw: string): string | null {
  // what a browser ignores inside a URL (controls, whitespace) is removed before the scheme is read
  // eslint-disable-next-line no-control-regex
  const v = decodeEntities(raw).replace(/[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\ufeff]/g, '');
  if (/^https?:\/\/[^/\\]/i.test(v)) return v;
  if (/^(mailto|tel):[^\s]+$/i.test(v)) return v;
  if (/^\/(?![/\\])/.test(v)) return v;
  return null;
}

/** An image: an upload of ours (/files/…) or an https address. */
export function safeImageSrc(raw: string): string | null {
  const v = decodeEntities(raw).trim();
  if (IMAGE_URL_PATTERN.test(v)) return v;
  // eslint-disable-next-line no-control-regex
  if (/^https:\/\/[a-z0-9.-]+(:\d+)?\/[^\s"'<>\\\u0000-\u001f]*$/i.test(v)) return v;
  return null;
}

interface Tag {
  name: string;
  end: boolean;
  attrs: Map<string, string>;
  /** index after the tag */
  next: number;
}

/** Reads a tag starting at `<` at i; null when what follows is not a tag (then `<` is text). */
function readTag(s: string, i: number): Tag | null {
  let j = i + 1;
  const end = s[j] === '/';
  if (end) j++;
  const m = /^[a-zA-Z][a-zA-Z0-9-]*/.exec(s.slice(j, j + 40));
  if (!m) return null;
  const name = m[0].toLowerCase();
  j += m[0].length;
  const attrs = new Map<string, string>();
  while (j < s.length) {
    while (j < s.length && /[\s/]/.test(s[j]!)) j++;
    if (j >= s.length) break;
    if (s[j] === '>') return { name, end, attrs, next: j + 1 };
    const an = /^[^\s/>=]+/.exec(s.slice(j, j + 200));
    if (!an) {
      j++;
      continue;
    }
    const attr = an[0].toLowerCase();
    j += an[0].length;
    while (j < s.length && /\s/.test(s[j]!)) j++;
    let value = '';
    if (s[j] === '=') {
      j++;
      while (j < s.length && /\s/.test(s[j]!)) j++;
      const q = s[j];
      if (q === '"' || q === "'") {
        const close = s.indexOf(q, j + 1);
        if (close < 0) return { name, end, attrs, next: s.length };
        value = s.slice(j + 1, close);
        j = close + 1;
      } else {
        const uv = /^[^\s>]*/.exec(s.slice(j))!;
        value = uv[0];
        j += uv[0].length;
      }
    }
    if (!attrs.has(attr)) attrs.set(attr, value);
  }
  // an unterminated tag swallows the rest, as a browser does
  return { name, end, attrs, next: s.length };
}

function openTag(t: Tag): string | null {
  if (t.name === 'a') {
    const href = safeHref(t.attrs.get('href') ?? '');
    return href ? `<a href="${escapeAttr(href)}" target="_blank" rel="noopener noreferrer nofollow">` : '<a>';
  }
  if (t.name === 'img') {
    const src = safeImageSrc(t.attrs.get('src') ?? '');
    if (!src) return null;
    const alt = decodeEntities(t.attrs.get('alt') ?? '').slice(0, 100);
    return `<img src="${escapeAttr(src)}" alt="${escapeAttr(alt)}">`;
  }
  return `<${t.name}>`;
}

/** The allow-listed HTML of a notice's body. */
export function sanitizeNoticeHtml(input: string): string {
  const s = input;
  const out: string[] = [];
  const open: string[] = [];
  let i = 0;
  let text = '';
  const flush = () => {
    if (text) out.push(escapeText(decodeEntities(text)));
    text = '';
  };
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    if (lt < 0) {
      text += s.slice(i);
      break;
    }
    text += s.slice(i, lt);
    i = lt;
    if (s.startsWith('<!--', i)) {
      flush();
      const close = s.indexOf('-->', i + 4);
      i = close < 0 ? s.length : close + 3;
      continue;
    }
    if (s[i + 1] === '!' || s[i + 1] === '?') {
      flush();
      const close = s.indexOf('>', i);
      i = close < 0 ? s.length : close + 1;
      continue;
    }
    const tag = readTag(s, i);
    if (!tag) {
      text += '<';
      i++;
      continue;
    }
    flush();
    i = tag.next;
    if (!tag.end && DROP_CONTENT.has(tag.name)) {
      // skip to the matching end tag (or the end): its content is never text
      const re = new RegExp(`</${tag.name}[\\s/>]`, 'ig');
      re.lastIndex = i;
      const m = re.exec(s + ' ');
      if (!m) i = s.length;
      else {
        const close = s.indexOf('>', m.index);
        i = close < 0 ? s.length : close + 1;
      }
      continue;
    }
    if (!ALLOWED.has(tag.name)) continue;
    if (tag.end) {
      const at = open.lastIndexOf(tag.name);
      if (at < 0) continue;
      while (open.length > at) out.push(`</${open.pop()!}>`);
      continue;
    }
    const html = openTag(tag);
    if (!html) continue;
    out.push(html);
    if (!VOID.has(tag.name)) open.push(tag.name);
  }
  flush();
  while (open.length) out.push(`</${open.pop()!}>`);
  return out.join('');
}

/** The body's text without tags (an empty-body check, an SMS excerpt). */
export function noticeText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}
