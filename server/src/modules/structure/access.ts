/** Who may change the structure; every signed-in account of the community may read it. */
export const STRUCTURE_WRITERS = ['admin', 'memberbasis'] as const;
