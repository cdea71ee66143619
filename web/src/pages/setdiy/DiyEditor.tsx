import { useEffect, useMemo, useState, type DragEvent } from 'react';
import { useLocation } from 'react-router';
import {
  Alert,
  App,
  Button,
  Card,
  Drawer,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { APP_SERVICE_CODES, APP_SERVICES } from '@wuye/contract/mobilesys/apply';
import { APP_LINK_TYPE, MENU_ICON } from '@wuye/contract/mobilesys/content';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  DIY_BLOCK_TYPE,
  DIY_KIND,
  DIY_LIMITS,
  DIY_STATUS,
  type DiyBlockType,
  type DiyKind,
  type DiyVersionItem,
} from '@wuye/contract/setdiy/pages';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { PhotosInput } from '../../components/PhotosInput';
import { MenuIcon } from '../mobilesys/widgets';
import { BlockView, DiyPhone, type EditBlock } from './DiyPhone';
import './setdiy.css';

/** The editor keeps a block with an id of its own, so a drag or a selection follows the block. */
interface Item {
  uid: number;
  block: EditBlock;
}
let nextUid = 1;
const wrap = (block: EditBlock): Item => ({ uid: nextUid++, block });

/** What a block of each type starts as when added from the palette. */
const NEW_BLOCK: Record<DiyBlockType, () => EditBlock> = {
  banner: () => ({ type: 'banner', slides: [{ image: '', link_type: 'none', target: '' }] }),
  grid: () => ({
    type: 'grid',
    columns: 4,
    items: (['payment', 'repair', 'complaint', 'notice', 'visitor', 'activity', 'parking', 'steward'] as const).map((service) => ({
      service,
      title: '',
      icon: '',
    })),
  }),
  notices: () => ({ type: 'notices', title: '社区公告', count: 3 }),
  articles: () => ({ type: 'articles', title: '社区资讯', count: 3 }),
  activities: () => ({ type: 'activities', title: '社区活动', count: 2 }),
  shortcut: () => ({ type: 'shortcut', image: '', title: '快捷入口', link_type: 'none', target: '' }),
  spacer: () => ({ type: 'spacer', height: 12 }),
  tabbar: () => ({
    type: 'tabbar',
    tabs: [
      { title: '首页', icon: 'HomeOutlined', link_type: 'none', target: '' },
      { title: '服务', icon: 'AppstoreOutlined', link_type: 'service', target: 'repair' },
      { title: '我的', icon: 'TeamOutlined', link_type: 'none', target: '' },
    ],
  }),
};
/** The palette's testid of each block type (diy-add-banner, diy-add-grid, …). */
const PALETTE: Record<DiyKind, DiyBlockType[]> = {
  homeDIY: ['banner', 'grid', 'notices', 'articles', 'activities', 'shortcut', 'spacer'],
  serviceDIY: ['banner', 'grid', 'notices', 'articles', 'activities', 'shortcut', 'spacer'],
  personalDIY: ['banner', 'grid', 'shortcut', 'spacer'],
  apply: ['banner', 'grid', 'shortcut', 'spacer', 'articles'],
  navbar: ['tabbar'],
};

const SERVICE_OPTIONS = APP_SERVICE_CODES.map((code) => ({ value: code, label: APP_SERVICES[code].title }));
const LINK_OPTIONS = enumOptions(APP_LINK_TYPE);
const TEMPLATE = 'template';

function kindOf(pathname: string): DiyKind {
  const last = pathname.split('/').filter(Boolean).pop() ?? '';
  return (last in DIY_KIND ? last : 'homeDIY') as DiyKind;
}

/**
 * A link's two fields: the type, then the target that fits it. `path` names them inside the form
 * list `list` (or on the block itself); the watch needs the full path.
 */
function LinkFields({ list, path, testId }: { list?: string; path: (string | number)[]; testId: string }) {
  const form = Form.useFormInstance();
  const type = Form.useWatch([...(list ? [list] : []), ...path, 'link_type'], form) as string | undefined;
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Form.Item name={[...path, 'link_type']} noStyle>
        <Select options={LINK_OPTIONS} style={{ width: 120 }} data-testid={`${testId}-link-type`} />
      </Form.Item>
      <Form.Item name={[...path, 'target']} noStyle>
        {type === 'service' ? (
          <Select options={SERVICE_OPTIONS} placeholder="选择内置功能" style={{ flex: 1 }} data-testid={`${testId}-target`} />
        ) : (
          <Input
            disabled={!type || type === 'none'}
            placeholder={
              type === 'article'
                ? '图文ID'
                : type === 'mini'
                  ? 'wx1234567890abcdef:pages/index/index'
                  : type === 'h5'
                    ? 'https://'
                    : '不跳转'
            }
            data-testid={`${testId}-target`}
          />
        )}
      </Form.Item>
    </Space.Compact>
  );
}

const ICON_OPTIONS = enumOptions(MENU_ICON).map((o) => ({
  value: o.value,
  label: (
    <span>
      <MenuIcon name={o.value} size={14} /> {o.label}
    </span>
  ),
}));

/** An icon of MENU_ICON drawn beside its word; '' (allowClear) keeps the default. */
function IconSelect(props: { value?: string; onChange?: (v: string) => void; testId?: string }) {
  return (
    <Select
      value={props.value || undefined}
      onChange={(v?: string) => props.onChange?.(v ?? '')}
      placeholder="默认图标"
      allowClear
      options={ICON_OPTIONS}
      style={{ width: 110 }}
      data-testid={props.testId}
    />
  );
}

/** One uploaded image kept as its address. */
function ImageField({ value, onChange, testId }: { value?: string; onChange?: (v: string) => void; testId: string }) {
  return <PhotosInput value={value ? [value] : []} onChange={(urls) => onChange?.(urls[0] ?? '')} max={1} testId={testId} />;
}

/** The selected block's properties; every change goes to the canvas at once. */
function BlockForm({ item, onChange }: { item: Item; onChange: (b: EditBlock) => void }) {
  const [form] = Form.useForm();
  const b = item.block;
  return (
    <Form
      key={item.uid}
      form={form}
      layout="vertical"
      initialValues={b}
      onValuesChange={(_, all) => onChange({ ...b, ...all, type: b.type })}
      data-testid="diy-props"
    >
      {b.type === 'banner' && (
        <Form.List name="slides">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f, n) => (
                <Card
                  key={f.key}
                  size="small"
                  title={`第${n + 1}张`}
                  style={{ marginBottom: 8 }}
                  extra={<MinusCircleOutlined onClick={() => remove(f.name)} />}
                >
                  <Form.Item name={[f.name, 'image']} label="图片">
                    <ImageField testId={`diy-slide-${n}-image`} />
                  </Form.Item>
                  <Form.Item label="跳转">
                    <LinkFields list="slides" path={[f.name]} testId={`diy-slide-${n}`} />
                  </Form.Item>
                </Card>
              ))}
              <Button
                icon={<PlusOutlined />}
                disabled={fields.length >= DIY_LIMITS.slides}
                onClick={() => add({ image: '', link_type: 'none', target: '' })}
                data-testid="diy-slide-add"
              >
                添加图片（最多{DIY_LIMITS.slides}张）
              </Button>
            </>
          )}
        </Form.List>
      )}
      {b.type === 'grid' && (
        <>
          <Form.Item name="columns" label="每行个数">
            <Radio.Group options={[4, 5].map((v) => ({ value: v, label: `${v}个` }))} data-testid="diy-grid-columns" />
          </Form.Item>
          <Form.List name="items">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f, n) => (
                  <Space key={f.key} align="start" wrap style={{ marginBottom: 4 }}>
                    <Form.Item name={[f.name, 'service']} noStyle>
                      <Select options={SERVICE_OPTIONS} style={{ width: 110 }} data-testid={`diy-grid-item-${n}`} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'title']} noStyle>
                      <Input placeholder="名称（默认）" style={{ width: 100 }} maxLength={6} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'icon']} noStyle>
                      <IconSelect testId={`diy-grid-item-${n}-icon`} />
                    </Form.Item>
                    <MinusCircleOutlined onClick={() => remove(f.name)} aria-label="移除" />
                  </Space>
                ))}
                <Button
                  icon={<PlusOutlined />}
                  disabled={fields.length >= DIY_LIMITS.gridItems}
                  onClick={() => {
                    const used = new Set(((form.getFieldValue('items') as Array<{ service: string }>) ?? []).map((i) => i.service));
                    add({ service: APP_SERVICE_CODES.find((c) => !used.has(c)) ?? 'repair', title: '', icon: '' });
                  }}
                  data-testid="diy-grid-add"
                >
                  添加应用（最多{DIY_LIMITS.gridItems}个）
                </Button>
              </>
            )}
          </Form.List>
        </>
      )}
      {(b.type === 'notices' || b.type === 'articles' || b.type === 'activities') && (
        <>
          <Form.Item name="title" label="模块标题">
            <Input maxLength={12} data-testid="diy-list-title" />
          </Form.Item>
          <Form.Item name="count" label="显示条数">
            <InputNumber min={1} max={DIY_LIMITS.listCount} precision={0} data-testid="diy-list-count" />
          </Form.Item>
          <Typography.Text type="secondary">显示各小区最新发布的内容</Typography.Text>
        </>
      )}
      {b.type === 'shortcut' && (
        <>
          <Form.Item name="image" label="图片">
            <ImageField testId="diy-shortcut-image" />
          </Form.Item>
          <Form.Item name="title" label="标题">
            <Input maxLength={20} data-testid="diy-shortcut-title" />
          </Form.Item>
          <Form.Item label="跳转">
            <LinkFields path={[]} testId="diy-shortcut" />
          </Form.Item>
        </>
      )}
      {b.type === 'spacer' && (
        <Form.Item name="height" label="高度（像素）">
          <InputNumber min={4} max={100} precision={0} data-testid="diy-spacer-height" />
        </Form.Item>
      )}
      {b.type === 'tabbar' && (
        <Form.List name="tabs">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f, n) => (
                <Card
                  key={f.key}
                  size="small"
                  title={`菜单${n + 1}`}
                  style={{ marginBottom: 8 }}
                  extra={<MinusCircleOutlined onClick={() => remove(f.name)} />}
                >
                  <Space wrap>
                    <Form.Item name={[f.name, 'title']} noStyle>
                      <Input placeholder="名称" maxLength={4} style={{ width: 90 }} data-testid={`diy-tab-${n}-title`} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'icon']} noStyle>
                      <IconSelect testId={`diy-tab-${n}-icon`} />
                    </Form.Item>
                  </Space>
                  <div style={{ marginTop: 8 }}>
                    <LinkFields list="tabs" path={[f.name]} testId={`diy-tab-${n}`} />
                  </div>
                </Card>
              ))}
              <Button
                icon={<PlusOutlined />}
                disabled={fields.length >= DIY_LIMITS.tabsMax}
                onClick={() => add({ title: '', icon: 'AppstoreOutlined', link_type: 'none', target: '' })}
                data-testid="diy-tab-add"
              >
                添加菜单（{DIY_LIMITS.tabsMin}至{DIY_LIMITS.tabsMax}个）
              </Button>
            </>
          )}
        </Form.List>
      )}
    </Form>
  );
}

/** The phone-width preview of a page as a chosen community's owners see it (diypagepreview). */
function PreviewModal({
  kind,
  rid,
  regions,
  version,
  onClose,
}: {
  kind: DiyKind;
  rid: number | null;
  regions: Array<{ rid: number; title: string }>;
  version: number | null;
  onClose: () => void;
}) {
  const [community, setCommunity] = useState<number | null>(rid ?? regions[0]?.rid ?? null);
  const [draft, setDraft] = useState(version === null);
  const payload = { kind, rid: community, ...(version !== null ? { version } : { draft: draft ? ('Y' as const) : ('N' as const) }) };
  const preview = useQuery({ queryKey: ['diypagepreview', payload], queryFn: () => call('diypagepreview', payload) });
  const p = preview.data;
  return (
    <Modal open title="预览" footer={null} onCancel={onClose} width={460} data-testid="diy-preview-modal">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          value={community ?? TEMPLATE}
          onChange={(v: number | string) => setCommunity(v === TEMPLATE ? null : Number(v))}
          options={[{ value: TEMPLATE, label: '集团模板（不含小区数据）' }, ...regions.map((r) => ({ value: r.rid, label: r.title }))]}
          style={{ width: 220 }}
          data-testid="diy-preview-rid"
        />
        {version === null && (
          <Switch checked={draft} onChange={setDraft} checkedChildren="草稿" unCheckedChildren="已发布" data-testid="diy-preview-draft" />
        )}
      </Space>
      {p && (
        <Typography.Paragraph type="secondary" data-testid="diy-preview-source">
          {p.scope_ch} · {p.source === 'template' ? '使用集团模板' : '小区自己的页面'} · 版本{p.version}（
          {p.version_status === 'D' ? '草稿' : p.version_status === 'P' ? '已发布' : '历史版本'}）
        </Typography.Paragraph>
      )}
      {p?.warnings.map((w) => (
        <Alert key={w} type="info" showIcon message={w} style={{ marginBottom: 8 }} />
      ))}
      {p && p.hidden.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          message="本小区不显示"
          description={p.hidden.map((h) => (
            <div key={h}>{h}</div>
          ))}
          data-testid="diy-preview-hidden"
        />
      )}
      {p ? (
        <DiyPhone blocks={p.blocks as EditBlock[]} testId="diy-preview-phone" />
      ) : preview.isError ? (
        <Empty description="无法预览" />
      ) : null}
    </Modal>
  );
}

/**
 * DIY页面 (/setdiy/homeDIY, serviceDIY, navbar, personalDIY, apply on the group side; issue 45): a
 * block palette, a phone-sized canvas (drag or the arrows to reorder; click to select) and the
 * selected block's properties; the top bar picks the scope (the group template or a community) and
 * saves the draft, publishes, lists the versions with roll-back, copies to communities and previews.
 */
export default function DiyEditor() {
  const kind = kindOf(useLocation().pathname);
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [scope, setScope] = useState<number | typeof TEMPLATE>(TEMPLATE);
  const rid = scope === TEMPLATE ? null : scope;
  const list = useQuery({ queryKey: ['diypagelist', kind], queryFn: () => call('diypagelist', { kind, rid: '' }) });
  const regions = useMemo(() => list.data?.regions ?? [], [list.data]);
  const infoKey = ['diypageinfo', kind, rid];
  const info = useQuery({ queryKey: infoKey, queryFn: () => call('diypageinfo', { kind, rid }) });
  const [items, setItems] = useState<Item[]>([]);
  const [loaded, setLoaded] = useState<string>('');
  const [selected, setSelected] = useState<number | null>(null);
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState(false);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [copyOpen, setCopyOpen] = useState(false);
  const [preview, setPreview] = useState<{ version: number | null } | null>(null);
  const [copyForm] = Form.useForm<{ to_rids: number[]; publish: boolean }>();

  // the page's blocks: the draft, else the published version (a community without its own: the template's)
  const stamp = info.data ? `${kind}:${rid}:${info.dataUpdatedAt}` : '';
  useEffect(() => {
    if (!info.data || stamp === loaded) return;
    if (loaded.startsWith(`${kind}:${rid}:`) && dirty) return;
    const source = info.data.draft ?? info.data.published;
    setItems((source?.blocks ?? []).map((b) => wrap(b as EditBlock)));
    setSelected(null);
    setDirty(false);
    setLoaded(stamp);
  }, [info.data, stamp, loaded, kind, rid, dirty]);

  const change = (next: Item[]) => {
    setItems(next);
    setDirty(true);
  };
  const add = (type: DiyBlockType, at = items.length) => {
    if (items.length >= DIY_LIMITS.blocks) {
      modal.warning({ title: `页面最多${DIY_LIMITS.blocks}个模块` });
      return;
    }
    const item = wrap(NEW_BLOCK[type]());
    change([...items.slice(0, at), item, ...items.slice(at)]);
    setSelected(item.uid);
  };
  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= items.length) return;
    const next = [...items];
    const [it] = next.splice(from, 1);
    next.splice(to, 0, it!);
    change(next);
  };
  const remove = (uid: number) => {
    change(items.filter((i) => i.uid !== uid));
    if (selected === uid) setSelected(null);
  };

  const onDrop = (e: DragEvent, at: number) => {
    e.preventDefault();
    e.stopPropagation();
    setOver(null);
    const type = e.dataTransfer.getData('application/x-diy-block') as DiyBlockType;
    if (type && type in DIY_BLOCK_TYPE) add(type, at);
    else if (dragFrom !== null) move(dragFrom, at > dragFrom ? at - 1 : at);
    setDragFrom(null);
  };

  const refresh = async () => {
    setDirty(false);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['diypageinfo', kind] }),
      queryClient.invalidateQueries({ queryKey: ['diypagelist', kind] }),
    ]);
  };
  const run = async (fn: () => Promise<{ return_msg: string }>) => {
    setBusy(true);
    try {
      const answer = await fn();
      noticeSuccess(answer.return_msg);
      await refresh();
      return true;
    } catch {
      return false; // shown by the client
    } finally {
      setBusy(false);
    }
  };
  const save = () => run(() => request('diypagesave', { kind, rid, blocks: items.map((i) => i.block) as never }));
  const publish = () =>
    modal.confirm({
      title: `发布${DIY_KIND[kind].text}`,
      content: dirty ? '先保存当前修改为草稿，再发布草稿。发布后业主端立即显示新页面。' : '发布草稿后业主端立即显示新页面。',
      okText: '发布',
      onOk: async () => {
        if (dirty && !(await save())) return;
        await run(() => request('diypagepublish', { kind, rid }));
      },
    });
  const rollback = (v: DiyVersionItem) =>
    modal.confirm({
      title: `回滚到版本${v.version}`,
      content: `把版本${v.version}的内容作为新版本发布，当前草稿保留不变。`,
      okText: '回滚',
      onOk: () => run(() => request('diypagerollback', { kind, rid, version: v.version })),
    });
  const removeOverride = () =>
    rid !== null &&
    modal.confirm({
      title: '删除本小区页面',
      content: '删除本小区自己的页面及其全部版本，本小区恢复使用集团模板。',
      okText: '删除',
      okButtonProps: { danger: true },
      onOk: () => run(() => request('diypagedel', { kind, rid })),
    });
  const copy = async () => {
    const v = await copyForm.validateFields().catch(() => null);
    if (!v) return;
    if (await run(() => request('diypagecopy', { kind, from_rid: rid, to_rids: v.to_rids, publish: v.publish ? 'Y' : 'N' })))
      setCopyOpen(false);
  };

  const d = info.data;
  // nothing is added or saved before the scope's page is loaded (it would replace the edits)
  const ready = !!d && loaded.startsWith(`${kind}:${rid}:`);
  const selectedItem = items.find((i) => i.uid === selected) ?? null;
  const scopeOptions = [{ value: TEMPLATE, label: '集团模板' }, ...regions.map((r) => ({ value: r.rid, label: r.title }))];

  return (
    <Card data-testid="diy-page" title={`${DIY_KIND[kind].text}DIY`}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          value={scope}
          onChange={(v) => {
            if (dirty && !window.confirm('当前修改尚未保存，确定切换？')) return;
            setDirty(false);
            setScope(v);
          }}
          options={scopeOptions}
          style={{ width: 200 }}
          showSearch
          optionFilterProp="label"
          data-testid="diy-scope"
        />
        {d && (
          <Tag
            color={DIY_STATUS[d.status].tone === 'success' ? 'green' : DIY_STATUS[d.status].tone === 'warning' ? 'orange' : 'default'}
            data-testid="diy-status"
          >
            {d.inherits ? '使用集团模板' : d.status_ch}
            {d.published ? ` · 已发布版本${d.published.version}` : ''}
            {d.draft ? ` · 草稿版本${d.draft.version}` : ''}
          </Tag>
        )}
        {dirty && <Tag color="blue">有未保存的修改</Tag>}
        <Button type="primary" loading={busy} disabled={!ready} onClick={() => void save()} data-testid="diy-save">
          保存草稿
        </Button>
        <Button onClick={publish} disabled={!ready || busy || (!dirty && !d?.draft)} data-testid="diy-publish">
          发布
        </Button>
        <Button onClick={() => setVersionsOpen(true)} disabled={!d?.exists} data-testid="diy-versions">
          版本
        </Button>
        <Button
          onClick={() => {
            copyForm.setFieldsValue({ to_rids: [], publish: false });
            setCopyOpen(true);
          }}
          disabled={!d?.published && !d?.draft}
          data-testid="diy-copy"
        >
          复制到小区
        </Button>
        <Button onClick={() => setPreview({ version: null })} disabled={!d?.published && !d?.draft} data-testid="diy-preview">
          预览
        </Button>
        {rid !== null && d?.exists && (
          <Button danger onClick={removeOverride} data-testid="diy-delete">
            删除本小区页面
          </Button>
        )}
      </Space>
      {d?.inherits && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message="本小区没有自己的页面，业主看到的是集团模板。保存后成为本小区自己的页面。"
          data-testid="diy-inherits"
        />
      )}
      <div className="diy-editor">
        <div className="diy-palette" data-testid="diy-palette">
          <Typography.Text strong>模块</Typography.Text>
          {PALETTE[kind].map((type) => (
            <Button
              key={type}
              className="diy-palette-item"
              draggable
              onDragStart={(e) => {
                e.dataTransfer.setData('application/x-diy-block', type);
                e.dataTransfer.effectAllowed = 'copy';
              }}
              onClick={() => add(type)}
              disabled={!ready || (kind === 'navbar' && items.length > 0)}
              icon={<PlusOutlined />}
              data-testid={`diy-add-${type}`}
            >
              {DIY_BLOCK_TYPE[type].text}
            </Button>
          ))}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            点击或拖到手机画布中添加；最多{DIY_LIMITS.blocks}个模块
          </Typography.Text>
        </div>
        <div className="diy-phone" data-testid="diy-canvas" onDragOver={(e) => e.preventDefault()} onDrop={(e) => onDrop(e, items.length)}>
          <div className="diy-phone-screen">
            {items.length === 0 && <div className="diy-empty">从左侧添加模块</div>}
            {items.map((it, i) => (
              <div
                key={it.uid}
                className={`diy-block${selected === it.uid ? ' diy-block-selected' : ''}${over === i ? ' diy-block-over' : ''}`}
                draggable
                onDragStart={(e) => {
                  setDragFrom(i);
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', String(i));
                }}
                onDragOver={(e) => {
                  e.preventDefault();
                  setOver(i);
                }}
                onDragLeave={() => setOver((o) => (o === i ? null : o))}
                onDrop={(e) => onDrop(e, i)}
                onDragEnd={() => {
                  setDragFrom(null);
                  setOver(null);
                }}
                onClick={() => setSelected(it.uid)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') setSelected(it.uid);
                }}
                role="button"
                tabIndex={0}
                aria-label={DIY_BLOCK_TYPE[it.block.type].text}
                data-testid={`diy-block-${i}`}
                data-type={it.block.type}
              >
                {selected === it.uid && (
                  <Space.Compact className="diy-block-tools" size="small">
                    <Button
                      size="small"
                      icon={<ArrowUpOutlined />}
                      disabled={i === 0}
                      onClick={() => move(i, i - 1)}
                      aria-label="上移"
                      data-testid={`diy-block-${i}-up`}
                    />
                    <Button
                      size="small"
                      icon={<ArrowDownOutlined />}
                      disabled={i === items.length - 1}
                      onClick={() => move(i, i + 1)}
                      aria-label="下移"
                      data-testid={`diy-block-${i}-down`}
                    />
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => remove(it.uid)}
                      aria-label="删除"
                      data-testid={`diy-block-${i}-remove`}
                    />
                  </Space.Compact>
                )}
                <BlockView block={it.block} />
              </div>
            ))}
          </div>
        </div>
        <Card
          size="small"
          title={selectedItem ? `${DIY_BLOCK_TYPE[selectedItem.block.type].text}设置` : '模块设置'}
          data-testid="diy-properties"
        >
          {selectedItem ? (
            <BlockForm
              item={selectedItem}
              onChange={(block) => change(items.map((i) => (i.uid === selectedItem.uid ? { ...i, block } : i)))}
            />
          ) : (
            <Empty description="在画布中选择一个模块" />
          )}
        </Card>
      </div>

      <Drawer open={versionsOpen} onClose={() => setVersionsOpen(false)} title="版本记录" size="default" data-testid="diy-versions-drawer">
        {(d?.versions ?? []).map((v) => (
          <div key={v.version} className="diy-version" data-testid={`diy-version-${v.version}`}>
            <Space wrap>
              <strong>版本{v.version}</strong>
              <Tag color={v.status === 'P' ? 'green' : v.status === 'D' ? 'blue' : 'default'}>{v.status_ch}</Tag>
              <span>{v.block_count}个模块</span>
            </Space>
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {v.updated_by} 修改于 {v.update_time}
                {v.publish_time ? ` · ${v.published_by} 发布于 ${v.publish_time}` : ''}
                {v.note ? ` · ${v.note}` : ''}
              </Typography.Text>
            </div>
            <Space style={{ marginTop: 4 }}>
              <Button size="small" onClick={() => setPreview({ version: v.version })} data-testid={`diy-version-${v.version}-preview`}>
                预览
              </Button>
              {v.status === 'H' && (
                <Button size="small" onClick={() => rollback(v)} data-testid={`diy-version-${v.version}-rollback`}>
                  回滚
                </Button>
              )}
            </Space>
          </div>
        ))}
      </Drawer>

      <Modal
        open={copyOpen}
        title="复制到小区"
        onCancel={() => setCopyOpen(false)}
        onOk={() => void copy()}
        confirmLoading={busy}
        data-testid="diy-copy-modal"
      >
        <Typography.Paragraph type="secondary">
          把{rid === null ? '集团模板' : '本小区页面'}的已发布版本（没有则草稿）复制给所选小区，成为各小区自己的页面。
        </Typography.Paragraph>
        <Form form={copyForm} layout="vertical">
          <Form.Item name="to_rids" label="目标小区" rules={[{ required: true, message: '请选择目标小区' }]}>
            <Select
              mode="multiple"
              options={regions.filter((r) => r.rid !== rid).map((r) => ({ value: r.rid, label: r.title }))}
              optionFilterProp="label"
              data-testid="diy-copy-rids"
            />
          </Form.Item>
          <Form.Item name="publish" label="复制后直接发布" valuePropName="checked">
            <Switch data-testid="diy-copy-publish" />
          </Form.Item>
        </Form>
      </Modal>

      {preview && <PreviewModal kind={kind} rid={rid} regions={regions} version={preview.version} onClose={() => setPreview(null)} />}
    </Card>
  );
}
