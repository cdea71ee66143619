/** Route titles of the owners area, keyed like 'route.<name>' without the prefix. */
export const ownersTitles = {
  'zh-CN': { basismembers: '业主管理', basismembers_short: '业主', memberlist: '业主列表', ownercars: '住户车辆' },
  en: { basismembers: 'Owners', memberlist: 'Owner list', ownercars: 'Residents’ cars' },
  es: { basismembers: 'Propietarios', memberlist: 'Lista de propietarios', ownercars: 'Vehículos de residentes' },
};
