/** The user's text with LIKE's own characters (\ % _) taken literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%`: a LIKE / ILIKE pattern for "contains the text". */
export const likePattern = (text: string) => `%${literal(text)}%`;

/** `text%`: a LIKE pattern for "starts with the text" (a mobile number's first digits). */
export const prefixPattern = (text: string) => `${literal(text)}%`;
