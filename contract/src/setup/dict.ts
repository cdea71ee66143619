/**
 * 数据字典 (/setup/dict_list, issue 36): types and their items, in three scopes.
 * - 系统 (system): the coded values the code relies on, governed enums of the contract
 *   (`valueEnum(…, { key, name })`: bill status, payment method, visitor and face status…). Their
 *   values and tones are the code's; a group renames their labels (dictlabel), and every list,
 *   filter, form, drawer and export shows the new word (docs/resources.md#dictionary).
 * - 集团 / 小区 (group, community): the editable lists of DICT_TYPES (visitor reasons, car brands,
 *   owner tags): a group's items serve all its communities, a community adds its own. A value is
 *   once in its type within the group and cannot change once used.
 */
import { z } from 'zod';
import { id, int, paging, text, yn } from '../common.js';
import { enumSchema, valueEnum, type Tone } from '../kit/resource.js';
import { SETUP_MANAGERS } from './category.js';

/** The editable dictionary types (a new list the product needs is one line here). */
export const DICT_TYPES = valueEnum({
  visitor_reason: { text: '来访事由' },
  car_brand: { text: '车辆品牌' },
  owner_tag: { text: '住户标签' },
});
export type DictTypeKey = keyof typeof DICT_TYPES;

export const DICT_SCOPE = valueEnum({
  system: { text: '系统', tone: 'processing' },
  group: { text: '集团', tone: 'success' },
  community: { text: '小区', tone: 'default' },
});
export type DictScope = keyof typeof DICT_SCOPE;
/** The scopes an editable item may have. */
export const DICT_ITEM_SCOPE = valueEnum({ group: { text: '集团（各小区共用）' }, community: { text: '本小区' } });

export const DICT_TONE = valueEnum({
  default: { text: '默认', tone: 'default' },
  success: { text: '成功', tone: 'success' },
  processing: { text: '信息', tone: 'processing' },
  warning: { text: '警告', tone: 'warning' },
  error: { text: '危险', tone: 'error' },
});
export const DICT_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

export { SETUP_MANAGERS };
/** Who keeps the dictionary: a community's setup managers, and on the group side the head office (group items and labels only). */
export const DICT_KEEPERS = [...SETUP_MANAGERS, 'leader_admin'] as const;

/** A dictionary type: a governed enum of the code (system) or an editable list. */
export interface DictType {
  key: string;
  name: string;
  scope: 'system' | 'custom';
  /** its items the reader sees (system: the code's values; custom: the group's and the community's) */
  count: number;
  /** system: the labels the group renamed */
  renamed: number;
}

export interface DictItem {
  /** the row's id; 0 for a system item (it lives in the code, edited by type and value) */
  id: number;
  type: string;
  value: string;
  label: string;
  /** system: the code's own text (label differs when renamed) */
  default_label: string;
  sort: number;
  tone: Tone;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  scope: DictScope;
  scope_ch: string;
  /** records using the value (a used value cannot change or be deleted) */
  used: number;
  create_time: string;
}

const dictType = text(40).min(1, '请选择字典类型');
const label = text(100).min(1, '请输入标签');
const value = text(100)
  .min(1, '请输入字典值')
  .regex(/^[^\s]+$/, '字典值不能包含空格');
const itemFields = {
  label,
  value,
  sort: int(0, 9999).default(0),
  tone: enumSchema(DICT_TONE, '颜色').optional().default('default'),
  status: yn.optional().default('Y'),
  remark: text(200).optional().default(''),
};

export const dictSchemas = {
  dicttypelist: z.object({}),
  dictlist: z.object({
    ...paging,
    type: dictType,
    label: text(60).optional(),
    status: z.union([z.literal(''), yn]).optional(),
  }),
  dictadd: z.object({ type: enumSchema(DICT_TYPES, '字典类型'), scope: enumSchema(DICT_ITEM_SCOPE, '适用范围'), ...itemFields }),
  dictedit: z.object({ id, ...itemFields }),
  dictdel: z.object({ id }),
  /** renames a system item's label ('' restores the code's text) */
  dictlabel: z.object({ type: dictType, value: text(40), label: text(100) }),
  /** the signed-in group's renamed labels, loaded once a session by the web */
  dictlabels: z.object({}),
  /** the enabled items of an editable type for the community: the pickers of other areas */
  dict_small_list: z.object({ type: enumSchema(DICT_TYPES, '字典类型') }),
} as const;

export interface DictOutputs {
  dicttypelist: { items: DictType[] };
  dictlist: { items: DictItem[]; total: number };
  dictadd: { id: number };
  dictedit: null;
  dictdel: null;
  dictlabel: null;
  dictlabels: { labels: Record<string, Record<string, string>> };
  dict_small_list: { items: Array<{ value: string; label: string; tone: Tone }> };
}
