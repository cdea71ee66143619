/** Who may change the structure; every signed-in account of the community may read it. */
export const STRUCTURE_WRITERS = ['admin', 'memberbasis'] as const;

/** `%text%` for ILIKE with the user's % and _ taken literally. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
