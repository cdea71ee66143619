/** The deepest nesting of arrays and objects a request body may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, found in one pass that skips over
 * strings (an upload's base64 text is passed over with indexOf, not walked character by character).
 * Only the depth is judged: whether the text is JSON at all is for the parser.
 */
export function jsonTooDeep(text: string, max: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // to the closing quote: one not preceded by an odd run of backslashes
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return false;
        let slashes = 0;
        for (let j = end - 1; text.charCodeAt(j) === 0x5c; j--) slashes++;
        i = end;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}
