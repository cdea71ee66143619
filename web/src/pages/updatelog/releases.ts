/** Release notes of this product, newest first. */
export interface Release {
  version: string;
  date: string;
  items: string[];
}

export const RELEASES: Release[] = [
  {
    version: 'v1.0.0',
    date: '2025-01-15',
    items: [
      '全新控制台外壳：顶部菜单、侧边栏、访问标签页、面包屑与页脚',
      '登录、导航守卫与按角色生成菜单，支持社区端与集团端',
      '小区续费：扫码支付与激活码两种方式，到期前 30 天提醒',
      '待办事项列表：按状态筛选、标记完成，顶部待办角标',
      '管理看板：在新窗口中全屏展示小区概况',
      '弱密码提醒与修改密码',
      '系统布局配置：主题色、标签页、固定头部、侧边栏 Logo；布局大小与多语言（中文 / English / Español）',
      '菜单搜索、全屏、错误日志',
    ],
  },
];
