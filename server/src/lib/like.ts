/** The user's text with LIKE's own characters (\ % _) taken literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%`: a LIKE / ILIKE pattern for "contains the text". */
export const likePattern = (text: string) => `%${literal(text)}%`;

/** `text%`: a LIKE pattern for "starts with the text" (a mobile number's first digits). */
export const prefixPattern = (text: string) => `${literal(text)}%`;

/**
 * The operator for "contains the text, whatever the case": LIKE when the text has no letter that
 * has a case (digits, Chinese, '-'), which then finds exactly what ILIKE finds without
 * lower-casing every value it tests (a community's 483,000 cashier names: 135 ms with ILIKE, 65
 * with LIKE; docs/perf/history.md#round-19).
 */
export const containsOperator = (text: string): 'like' | 'ilike' =>
  text.toLowerCase() === text && text.toUpperCase() === text ? 'like' : 'ilike';
