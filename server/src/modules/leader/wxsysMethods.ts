import { setchannelMethods, wxsysMethods } from './wxsys.js';

/** The group's WeChat settings and payment channels (公众号/小程序设置 and 支付渠道, /setup on the group side; issue 45). */
export const wxsysModule = [...wxsysMethods, ...setchannelMethods];
