/**
 * The WeChat official account platform the followers come from (docs/product.md#wx-followers),
 * shaped as its API is: the follower list (user/get) answers at most 10,000 open ids a call and the
 * `next_openid` to go on from, listing only those following now; the user info (user/info/batchget)
 * answers at most 100 a call, with subscribe 0 for one who has left and, since 2021-12-27, no
 * nickname or avatar; a remark is set one follower at a time (user/info/updateremark). A real
 * provider calls those with the account's access token; until an account is set up a community's
 * followers come from the sandbox.
 */

/** The follower list's page: the open ids of followers now, in a stable order. */
export interface WechatFollowerPage {
  /** followers in all */
  total: number;
  openids: string[];
  /** where the next call goes on from; '' at the end */
  nextOpenid: string;
}

/** One follower's info as user/info/batchget answers it. */
export interface WechatUserInfo {
  openid: string;
  /** 1 following, 0 not (then the rest is empty) */
  subscribe: 0 | 1;
  unionid: string;
  /** seconds since 1970 */
  subscribeTime: number;
  subscribeScene: string;
  /** the QR code's scene string ('' none) */
  qrSceneStr: string;
  remark: string;
  /** the tags' names (the platform answers ids; a real provider reads their names with tags/get) */
  tags: string[];
}

/** A template message (message/template/send): the account's template for the event, filled with the title and the text. */
export interface WechatTemplateMessage {
  openid: string;
  /** the event whose template it fills (a real provider maps it to the account's template id) */
  event: string;
  title: string;
  content: string;
}

export type WechatSendResult = { ok: true; msgid: string } | { ok: false; reason: string };

export interface WechatProvider {
  readonly name: 'sandbox' | 'wechat';
  /** a page of the follower list, from `nextOpenid` ('' the start) */
  followers(nextOpenid: string): Promise<WechatFollowerPage>;
  /** the info of at most USER_INFO_BATCH followers */
  userInfo(openids: string[]): Promise<WechatUserInfo[]>;
  /** sets a follower's remark on the platform */
  updateRemark(openid: string, remark: string): Promise<void>;
  /** sends a template message; the platform refuses one to a follower who left (43004) */
  sendTemplate(msg: WechatTemplateMessage): Promise<WechatSendResult>;
}

/** user/info/batchget's limit a call. */
export const USER_INFO_BATCH = 100;

const TAGS = ['业主', '租户', '商户', '活动报名', '缴费提醒'];
const CHANNELS = ['物业前台', '缴费单', '社区活动', '电梯广告', ''];
const SCENES = ['ADD_SCENE_QR_CODE', 'ADD_SCENE_SEARCH', 'ADD_SCENE_PROFILE_CARD', 'ADD_SCENE_QR_CODE', 'ADD_SCENE_OTHERS'];
const DAY = 86_400;

/** A sandbox follower's open id: 28 characters as the platform's, the community's and the follower's number in it. */
export const sandboxOpenid = (rid: number, n: number) => `oSBX${String(rid).padStart(4, '0')}${String(n).padStart(6, '0')}wuyeSandbox000`;

/**
 * The sandbox: each community has the same followers every time (SANDBOX_FOLLOWERS of them), every
 * seventh of them no longer following; the list pages `pageSize` at a time (small, so paging is
 * exercised); two in three have a union id; they followed over the past year, one a week, through
 * the scenes and channels in turn.
 */
export class SandboxWechatProvider implements WechatProvider {
  readonly name = 'sandbox';
  static readonly FOLLOWERS = 42;
  constructor(
    private readonly rid: number,
    private readonly pageSize = 20,
    /** the moment "now" is for the subscribe times (a fixed one keeps them stable across runs) */
    private readonly now = Date.UTC(2026, 10, 30) / 1000,
  ) {}

  /** the sandbox's follower n (1-based) */
  private person(n: number): WechatUserInfo {
    const following = n % 7 !== 0;
    return {
      openid: sandboxOpenid(this.rid, n),
      subscribe: following ? 1 : 0,
      unionid: following && n % 3 !== 0 ? `uSBX${String(this.rid).padStart(4, '0')}${String(n).padStart(6, '0')}` : '',
      subscribeTime: following ? this.now - (SandboxWechatProvider.FOLLOWERS - n) * 7 * DAY - (n % 24) * 3600 : 0,
      subscribeScene: following ? SCENES[n % SCENES.length]! : '',
      qrSceneStr: following && SCENES[n % SCENES.length] === 'ADD_SCENE_QR_CODE' ? CHANNELS[n % CHANNELS.length]! : '',
      remark: '',
      tags: following ? TAGS.filter((_, i) => (n + i) % 4 === 0).slice(0, 2) : [],
    };
  }

  private following(): string[] {
    const out: string[] = [];
    for (let n = 1; n <= SandboxWechatProvider.FOLLOWERS; n++) if (n % 7 !== 0) out.push(sandboxOpenid(this.rid, n));
    return out;
  }

  followers(nextOpenid: string): Promise<WechatFollowerPage> {
    const all = this.following();
    const from = nextOpenid ? all.indexOf(nextOpenid) + 1 : 0;
    const openids = all.slice(from, from + this.pageSize);
    const end = from + openids.length >= all.length;
    return Promise.resolve({ total: all.length, openids, nextOpenid: end ? '' : openids[openids.length - 1]! });
  }

  userInfo(openids: string[]): Promise<WechatUserInfo[]> {
    if (openids.length > USER_INFO_BATCH) return Promise.reject(new Error(`user/info/batchget takes at most ${USER_INFO_BATCH}`));
    const prefix = sandboxOpenid(this.rid, 0).slice(0, 8);
    return Promise.resolve(
      openids.flatMap((o) => {
        const n = o.startsWith(prefix) ? Number(o.slice(8, 14)) : 0;
        return n >= 1 && n <= SandboxWechatProvider.FOLLOWERS ? [this.person(n)] : [];
      }),
    );
  }

  /** Every follower the sandbox knows, following or not (the demo's seed keeps them all). */
  everyone(): WechatUserInfo[] {
    return Array.from({ length: SandboxWechatProvider.FOLLOWERS }, (_, i) => this.person(i + 1));
  }

  updateRemark(): Promise<void> {
    return Promise.resolve();
  }

  /** A sandbox follower who left is refused as the platform refuses them; everyone else gets it. */
  sendTemplate(msg: WechatTemplateMessage): Promise<WechatSendResult> {
    const prefix = sandboxOpenid(this.rid, 0).slice(0, 8);
    const n = msg.openid.startsWith(prefix) ? Number(msg.openid.slice(8, 14)) : 0;
    if (n >= 1 && n <= SandboxWechatProvider.FOLLOWERS && !this.person(n).subscribe)
      return Promise.resolve({ ok: false, reason: '接收者未关注公众号（43004）' });
    return Promise.resolve({ ok: true, msgid: `SBX${this.rid}-${Date.now()}` });
  }
}

/** The community's WeChat provider: the sandbox until an official account is set up for it. */
export function wechatProviderFor(rid: number): WechatProvider {
  return new SandboxWechatProvider(rid);
}
