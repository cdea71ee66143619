import { dashboardWords, HOME_WORDS } from '@wuye/contract/home';
/**
 * Chinese texts (the default language). Feature areas add their route titles under `route`;
 * a key missing in en/es falls back to these.
 */
const zhCN = {
  route: {
    dashboard: HOME_WORDS['zh-CN'].title,
    desktop: '小区桌面',
    regionlist: '切换小区',
    setup: '系统设置',
    backlog: '待办事项',
    updatelog: '更新日志',
    spectaculars: '管理看板',
    page401: '401',
    page404: '404',
  },
  navbar: {
    ownerSearch: '业主查询',
    toggleSidebar: '折叠/展开侧边栏',
    menu: '菜单',
    appDownload: '应用下载',
    propertyApp: '物业 APP',
    wxapp: '小程序码',
    consumeMobileApp: '一卡通手机端',
    consumeApp: '一卡通 PC 端下载',
    board: '管理看板',
    backlog: '待办事项',
    updatelog: '更新日志',
    floorPlan: '小区平面图',
    help: '帮助',
    search: '搜索菜单',
    searchPlaceholder: '搜索页面',
    fullscreen: '全屏',
    exitFullscreen: '退出全屏',
    size: '布局大小',
    language: '语言',
    settings: '系统布局配置',
    errorLog: '错误日志',
    home: '首页',
    switchRegion: '切换小区',
    changePassword: '修改密码',
    logout: '退出登录',
    more: '更多',
    download: '下载',
  },
  size: { default: '默认', medium: '中', small: '小', mini: '迷你', switched: '布局大小已切换' },
  tags: { refresh: '刷新', close: '关闭', closeOthers: '关闭其他', closeAll: '关闭所有' },
  settings: {
    title: '系统布局配置',
    theme: '主题色',
    tagsView: '开启 Tags-View',
    fixedHeader: '固定 Header',
    sidebarLogo: '侧边栏 Logo',
  },
  login: {
    title: '物业管理后台',
    username: '用户名',
    password: '密码',
    submit: '登 录',
    capsLock: '大写锁定已打开',
  },
  errorLog: { title: '错误日志', message: '信息', info: '位置', url: '地址', time: '时间', clear: '清空', empty: '暂无错误' },
  common: {
    ok: '确定',
    cancel: '取消',
    close: '关闭',
    search: '搜索',
    reset: '重置',
    export: '导出',
    loading: '加载中…',
    operation: '操作',
    all: '全部',
    backHome: '返回首页',
    total: '共 {{total}} 条',
    back: '返回',
  },
  errorPage: {
    p401: '抱歉，您没有访问该页面的权限',
    p404: '抱歉，您访问的页面不存在',
  },
  dashboard: {
    ...dashboardWords('zh-CN'),
    renew: '续费',
  },
};

export default zhCN;
export type Messages = typeof zhCN;
