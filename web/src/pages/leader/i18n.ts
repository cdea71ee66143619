/** Route titles of the group head office's own pages, keyed as 'route.<key>' without the prefix. */
export const leaderTitles = {
  'zh-CN': { leaderFeecount: '集团收费汇总' },
  en: { leaderFeecount: 'Group fee summary' },
  es: { leaderFeecount: 'Resumen de cobros del grupo' },
};
