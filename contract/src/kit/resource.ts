/**
 * One description of a resource, shared by the server (defineResource expands it into methods)
 * and the web (ResourcePage renders it): fields, labels, coded values, roles and the literal
 * method names. Data only: nothing Kysely, nothing React. See docs/resources.md.
 */
import { z } from 'zod';
import { id, optionalId, paging, text } from '../common.js';
import type { ListAnswer } from '../codes.js';
import { WIRE_DATE_RE } from '../dates.js';
import type { ExportQueued } from '../jobs.js';
import type { SmallItem } from '../structure.js';

/** How a coded value looks: the tag's tone on the web, the same words everywhere. */
export type Tone = 'success' | 'warning' | 'error' | 'processing' | 'default';
export interface EnumEntry {
  text: string;
  tone?: Tone;
}
/** A coded value's one source of text and tone (server `*_ch`, web tags, filter and form options). */
export type ValueEnum<V extends string = string> = Readonly<Record<V, EnumEntry>>;

/**
 * Where the dictionary's renamed labels come from (/setup/dict_list, docs/resources.md#dictionary):
 * the web sets the signed-in group's labels once per session, the server the caller's group's per
 * call. Answers undefined for a value not renamed.
 */
export type EnumLabelSource = (dict: string, value: string) => string | undefined;
let labelSource: EnumLabelSource = () => undefined;
export function setEnumLabelSource(source: EnumLabelSource): void {
  labelSource = source;
}

/** A coded value the dictionary governs: its values are the code's, its labels the group's to rename. */
export interface DictEnum {
  /** the dictionary type's key (bill_status) */
  key: string;
  /** the type's name (账单状态) */
  name: string;
  /** the code's values and their default texts and tones, in order */
  items: ReadonlyArray<{ value: string; text: string; tone?: Tone }>;
}
const dictEnums = new Map<string, DictEnum>();
/** Every coded value the dictionary governs (the system types of /setup/dict_list). */
export const governedEnums = (): DictEnum[] => [...dictEnums.values()];
export const governedEnum = (key: string): DictEnum | undefined => dictEnums.get(key);

/**
 * A coded value's texts and tones. With `dict`, the dictionary governs it: each entry's text reads
 * the renamed label (the label source) before the default, so every reader (enumText, enumOptions,
 * `E[value].text`, `enumTexts`) shows the new word.
 */
export function valueEnum<const V extends string>(entries: Record<V, EnumEntry>, dict?: { key: string; name: string }): ValueEnum<V> {
  if (!dict) return Object.freeze(entries);
  if (dictEnums.has(dict.key)) throw new Error(`字典类型 ${dict.key} 重复`);
  const items: DictEnum['items'][number][] = [];
  const out = {} as Record<V, EnumEntry>;
  for (const [value, entry] of Object.entries(entries) as Array<[V, EnumEntry]>) {
    const fallback = entry.text;
    items.push(entry.tone ? { value, text: fallback, tone: entry.tone } : { value, text: fallback });
    const live: EnumEntry = {
      get text() {
        return labelSource(dict.key, value) ?? fallback;
      },
    };
    if (entry.tone) live.tone = entry.tone;
    out[value] = Object.freeze(live);
  }
  dictEnums.set(dict.key, Object.freeze({ key: dict.key, name: dict.name, items: Object.freeze(items) }));
  return Object.freeze(out);
}
/** The entry of a value ('' is a value where the enum names it: 待审核), or undefined. */
export function enumEntry<V extends string>(e: ValueEnum<V>, value: V | string | null | undefined): EnumEntry | undefined {
  if (value === null || value === undefined) return undefined;
  return Object.hasOwn(e, value) ? (e as Record<string, EnumEntry>)[value] : undefined;
}
/** The entry's text, or the value itself for one the enum does not know. */
export function enumText<V extends string>(e: ValueEnum<V>, value: V | string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return enumEntry(e, value)?.text ?? String(value);
}
export function enumKeys<V extends string>(e: ValueEnum<V>): [V, ...V[]] {
  return Object.keys(e) as [V, ...V[]];
}
export function enumOptions<V extends string>(e: ValueEnum<V>): Array<{ value: V; label: string }> {
  return enumKeys(e).map((value) => ({ value, label: e[value].text }));
}
/** Text map for code that wants `Record<V, string>` (export headers, older callers). */
export function enumTexts<V extends string>(e: ValueEnum<V>): Record<V, string> {
  // read at each use, so a label the dictionary renamed shows in these maps too
  const out = {} as Record<V, string>;
  for (const k of enumKeys(e)) Object.defineProperty(out, k, { get: () => e[k].text, enumerable: true });
  return Object.freeze(out);
}
/** The zod of a coded value, with a message naming the field. */
export function enumSchema<V extends string>(e: ValueEnum<V>, label: string) {
  return z.enum(enumKeys(e), { error: `${label}取值不正确` });
}

/** A filter's value of an enum, or '' for all of them; a wrong value is named by its label. */
export function enumOrAll<V extends string>(e: ValueEnum<V>, label: string) {
  return z.union([z.literal(''), enumSchema(e, label)], { error: `${label}取值不正确` });
}

/** A remote option list (a `*_small_list` method), optionally narrowed by another field's value. */
export interface SmallWidget {
  small: string;
  /** the field whose value is sent as this parameter, e.g. { bid: 'bid' } */
  dependsOn?: Record<string, string>;
  /** several may be chosen (a filter matching `in`: the bill tab's cost types) */
  multiple?: boolean;
}
/** A person living now in the room chosen in another field (`{ membersOf: 'hid' }`); the value is the member's id. */
export interface MembersWidget {
  membersOf: string;
}
export type Widget =
  | 'text'
  | 'textarea'
  | 'int'
  | 'decimal'
  | 'money'
  | 'date'
  | 'dateRange'
  | 'select'
  | 'radio'
  | 'password'
  | 'image'
  /**
   * a room of the community as building > unit > room; the value is the room's id. The rows carry
   * `bid` and `tid` beside it (an edit shows the row's path); the server refuses another's room.
   */
  | 'room'
  /** a custom widget the page supplies by field name */
  | 'custom'
  | SmallWidget
  | MembersWidget;

export const isSmallWidget = (w: Widget | undefined): w is SmallWidget => typeof w === 'object' && 'small' in w;
export const isMembersWidget = (w: Widget | undefined): w is MembersWidget => typeof w === 'object' && 'membersOf' in w;
/** The fields a field's choices depend on: a choice there clears this one. */
export function dependsOnFields(f: FieldDef): string[] {
  if (isSmallWidget(f.widget)) return Object.values(f.widget.dependsOn ?? {});
  if (isMembersWidget(f.widget)) return [f.widget.membersOf];
  return [];
}
/** The value of the field is a row id (a room, a member, a small list's choice). */
export const isIdWidget = (w: Widget | undefined) => w === 'room' || isMembersWidget(w) || (isSmallWidget(w) && !w.multiple);

export type Place = 'form' | 'table' | 'filter' | 'export' | 'detail';
export type Match = 'eq' | 'like' | 'range' | 'in';

export interface FieldDef {
  label: string;
  /** the one rule for the form value: the server parses it, the web derives its form rules */
  zod?: z.ZodType;
  /** the filter's own rule where the form's does not fit (default: the form's, optional and '' allowed) */
  filterZod?: z.ZodType;
  widget?: Widget;
  enum?: ValueEnum;
  /** where the field shows; default form, table, export (filter only when listed) */
  in?: readonly Place[];
  /** how a filter applies: text → like, others → eq; range takes [from, to] days, both included; in, a list */
  match?: Match;
  placeholder?: string;
  /** table column width in px */
  width?: number;
  /** kept visible at the left of a wide table (key columns) */
  fixed?: boolean;
  /** a hint under the form item */
  help?: string;
  /** given when the row is added and kept after (a code): not in the edit payload */
  once?: boolean;
  /** the form shows the field only while another field holds one of these values (指定小区 under 适用小区) */
  shownWhen?: { field: string; values: readonly string[] };
}

/** A read-only column the list answers (joins, counts, derived values). */
export interface ColumnDef {
  key: string;
  label: string;
  enum?: ValueEnum;
  widget?: 'money' | 'text' | 'date';
  width?: number;
  in?: ReadonlyArray<'table' | 'export' | 'detail'>;
  fixed?: boolean;
}

/** The row's creation time (`create_time` on the wire), 创建时间 unless the resource names it otherwise (登记时间). */
export const createTimeColumn = (label = '创建时间', more: Omit<ColumnDef, 'key' | 'label'> = {}): ColumnDef => ({
  key: 'create_time',
  label,
  width: 170,
  ...more,
});

export interface ResourceMethods {
  list: string;
  add?: string;
  edit?: string;
  del?: string;
  info?: string;
  small?: string;
  export?: string;
}

/** Roles allowed; 'any' = every signed-in account of the side. */
export type Roles = readonly string[] | 'any';

export interface ResourceDef {
  /** lower-case name: test ids (`building-add`), cache keys, i18n keys */
  name: string;
  /** what one row is called: 楼栋 → 新增楼栋, 楼栋不存在 */
  label: string;
  methods: ResourceMethods;
  /** the one place a resource's role lists live: server checks and web routes read them */
  roles: { read: Roles; write: Roles };
  fields: Record<string, FieldDef>;
  columns?: readonly ColumnDef[];
  /** the small list's required parameters, e.g. unit_small_list takes bid */
  smallBy?: readonly string[];
  /** the column the small list shows (default title) */
  smallLabel?: string;
  /** rules across fields, checked on add and edit (the message shows at `path`) */
  rules?: ReadonlyArray<{ check: (values: Record<string, unknown>) => boolean; message: string; path: string }>;
  /** add and edit in a modal (default) or on routes of their own */
  form?: 'modal' | { add: string; edit: string };
  /** edit and delete answer { id } (default null) */
  echoId?: boolean;
  /** the order of the list by default */
  sort?: 'asc' | 'desc';
  /**
   * whose rows these are: a community's (default: keyed (rid, id), community side) or the property
   * company's ('group': keyed by group_id, served on both sides, to the group's community staff and
   * its head office alike: departments, positions)
   */
  owner?: 'community' | 'group';
  /**
   * with owner 'group': served on the group side only, to the head office (rows a community's staff
   * must not change, though a community's admin holds every role: the group's banners); no export
   * (the download centre is a community's)
   */
  groupSide?: boolean;
}

const ALL_PLACES_BY_DEFAULT: readonly Place[] = ['form', 'table', 'export'];
export const placesOf = (f: FieldDef): readonly Place[] => f.in ?? ALL_PLACES_BY_DEFAULT;
export const shows = (f: FieldDef, place: Place) => placesOf(f).includes(place);

/** How a filter field matches when the description does not say. */
export function matchOf(f: FieldDef): Match {
  if (f.match) return f.match;
  if (isSmallWidget(f.widget) && f.widget.multiple) return 'in';
  if (f.enum || f.widget === 'select' || f.widget === 'radio' || f.widget === 'room' || typeof f.widget === 'object') return 'eq';
  if (f.widget === 'dateRange') return 'range';
  if (f.widget === 'int' || f.widget === 'money' || f.widget === 'decimal') return 'eq';
  return 'like';
}

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** A calendar day on the wire (YYYY-MM-DD, a day that exists). */
export const wireDay = z
  .string()
  .regex(WIRE_DATE_RE, '日期格式应为 YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
    message: '日期不存在',
  });

/** A day a form may leave empty ('' or null): null then. */
export const optionalDay = z
  .union([z.literal(''), z.null(), wireDay])
  .optional()
  .transform((v) => (v ? v : null));

/** The zod of one filter: optional, '' meaning no filter. */
export function filterSchema(f: FieldDef): z.ZodType {
  if (f.filterZod) return f.filterZod;
  if (matchOf(f) === 'range') {
    return z
      .union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])])
      .optional()
      .transform(emptyToUndefined);
  }
  if (matchOf(f) === 'in') {
    return z
      .union([z.literal(''), z.null(), z.array(z.union([id, text(60)])).max(50)])
      .optional()
      .transform((v) => (Array.isArray(v) && v.length > 0 ? v : undefined));
  }
  if (isIdWidget(f.widget)) return optionalId;
  // the union's own message: a value outside the enum is refused in the field's words, not as 「key 不正确」
  if (f.enum) return enumOrAll(f.enum, f.label).optional();
  if (matchOf(f) === 'like') return text(60).optional();
  if (f.zod)
    return z
      .union([z.literal(''), z.null(), f.zod])
      .optional()
      .transform(emptyToUndefined);
  return text(60).optional();
}

type FieldsOf<R extends ResourceDef> = R['fields'];
type DefaultPlaced<F> = F extends { in: readonly Place[] } ? never : F extends { zod: z.ZodType } ? true : never;
/** Keys of the fields that show in the form (their zod makes the add and edit payloads). */
export type FormKeys<F extends Record<string, FieldDef>> = {
  [K in keyof F]: F[K] extends { in: readonly (infer P)[] } ? ('form' extends P ? K : never) : DefaultPlaced<F[K]> extends true ? K : never;
}[keyof F] &
  string;
export type FormShape<F extends Record<string, FieldDef>> = {
  [K in FormKeys<F>]: F[K] extends { zod: infer Z extends z.ZodType } ? Z : z.ZodUnknown;
};
export type FilterKeys<F extends Record<string, FieldDef>> = {
  [K in keyof F]: F[K] extends { in: readonly (infer P)[] } ? ('filter' extends P ? K : never) : never;
}[keyof F] &
  string;

type M<R extends ResourceDef> = R['methods'];
type Named<R extends ResourceDef, K extends keyof ResourceMethods, S> = M<R>[K] extends string ? { [N in M<R>[K]]: S } : unknown;

/** What a filter carries once parsed: text, an id or code, a number, a [from, to] range or a list. */
export type FilterValue = string | number | [string, string] | Array<string | number> | undefined;
type FilterShape<R extends ResourceDef> = { [K in FilterKeys<FieldsOf<R>>]: z.ZodOptional<z.ZodType<FilterValue, FilterValue | null>> };
const sortField = z.enum(['asc', 'desc']).default('asc');
type ListShape = typeof paging & { sort: typeof sortField };
export type ListSchema<R extends ResourceDef> = z.ZodObject<ListShape & FilterShape<R>>;
export type ExportSchema<R extends ResourceDef> = z.ZodObject<{ sort: typeof sortField } & FilterShape<R>>;
export type AddSchema<R extends ResourceDef> = z.ZodObject<FormShape<FieldsOf<R>>>;
type OnceKeys<F extends Record<string, FieldDef>> = { [K in keyof F]: F[K] extends { once: true } ? K : never }[keyof F] & string;
export type EditSchema<R extends ResourceDef> = z.ZodObject<{ id: typeof idField } & Omit<FormShape<FieldsOf<R>>, OnceKeys<FieldsOf<R>>>>;
const idField = id;
type SmallShape<R extends ResourceDef> = R['smallBy'] extends readonly string[]
  ? { [K in R['smallBy'][number]]: typeof idField }
  : Record<never, never>;
export type SmallSchema<R extends ResourceDef> = z.ZodObject<SmallShape<R>>;
export type IdSchema = z.ZodObject<{ id: typeof idField }>;

/** The method schemas a description makes, keyed by their literal names. */
export type ResourceSchemas<R extends ResourceDef> = Named<R, 'list', ListSchema<R>> &
  Named<R, 'add', AddSchema<R>> &
  Named<R, 'edit', EditSchema<R>> &
  Named<R, 'del', IdSchema> &
  Named<R, 'info', IdSchema> &
  Named<R, 'small', SmallSchema<R>> &
  Named<R, 'export', ExportSchema<R>>;

/** The answers of those methods. */
export type ResourceOutputs<R extends ResourceDef, Row> = Named<R, 'list', ListAnswer<Row>> &
  Named<R, 'add', { id: number }> &
  Named<R, 'edit', R['echoId'] extends true ? { id: number } : null> &
  Named<R, 'del', R['echoId'] extends true ? { id: number } : null> &
  Named<R, 'info', Row> &
  Named<R, 'small', { items: SmallItem[] }> &
  Named<R, 'export', ExportQueued>;

export interface Resource<R extends ResourceDef = ResourceDef, Row = unknown> {
  readonly def: R;
  readonly schemas: ResourceSchemas<R>;
  /** phantom: the row type the list answers */
  readonly row?: Row;
  /** the add payload's shape, for the server's handlers */
  readonly formSchema: AddSchema<R>;
  readonly filterKeys: readonly string[];
}

/** The keys of the fields in one place, in description order. */
export function keysIn(def: ResourceDef, place: Place): string[] {
  return Object.entries(def.fields)
    .filter(([, f]) => shows(f, place))
    .map(([k]) => k);
}

/**
 * Declares a resource. `resource<Row>()({...})`: the row type is given, the rest is inferred so
 * the method names stay literal (a name in the network tab leads here in one search).
 */
export function resource<Row>() {
  return <const R extends ResourceDef>(def: R): Resource<R, Row> => {
    const formShape: Record<string, z.ZodType> = {};
    for (const key of keysIn(def, 'form')) formShape[key] = def.fields[key]!.zod ?? z.unknown();
    const filterShape: Record<string, z.ZodType> = {};
    const filterKeys = keysIn(def, 'filter');
    for (const key of filterKeys) filterShape[key] = filterSchema(def.fields[key]!).optional();
    const sort = def.sort === 'desc' ? z.enum(['asc', 'desc']).default('desc') : sortField;
    const withRules = <S extends z.ZodObject>(schema: S): S => {
      let out = schema;
      for (const r of def.rules ?? [])
        out = out.refine((v) => r.check(v as Record<string, unknown>), { message: r.message, path: [r.path] });
      return out;
    };
    const formSchema = withRules(z.object(formShape));
    const editShape: Record<string, z.ZodType> = { id: idField };
    for (const [key, schema] of Object.entries(formShape)) if (!def.fields[key]!.once) editShape[key] = schema;
    const schemas: Record<string, z.ZodType> = {};
    const m = def.methods;
    schemas[m.list] = z.object({ ...paging, sort, ...filterShape });
    if (m.add) schemas[m.add] = formSchema;
    if (m.edit) schemas[m.edit] = withRules(z.object(editShape));
    if (m.del) schemas[m.del] = z.object({ id: idField });
    if (m.info) schemas[m.info] = z.object({ id: idField });
    if (m.small) {
      const by: Record<string, z.ZodType> = {};
      for (const key of def.smallBy ?? []) by[key] = idField;
      schemas[m.small] = z.object(by);
    }
    if (m.export) schemas[m.export] = z.object({ sort, ...filterShape });
    return { def, schemas: schemas as ResourceSchemas<R>, formSchema: formSchema as AddSchema<R>, filterKeys };
  };
}
