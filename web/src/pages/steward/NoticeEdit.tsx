import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, DatePicker, Form, Input, Radio, Select, Space, Switch, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { NOTICE_AUDIENCE, NOTICE_CHANNEL, NOTICE_SCOPE, NOTICE_TITLE_MAX, NOTICE_TYPE, type NoticeItem } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { PhotosInput } from '../../components/PhotosInput';
import { useSmallList } from '../../components/resource';
import { validValues } from '../../utils/forms';
import { NoticeEditor } from './NoticeEditor';

interface NoticeForm {
  title: string;
  type: NoticeItem['type'];
  cover: string[];
  body: string;
  scope: NoticeItem['scope'];
  bids: number[];
  bid?: number;
  tids: number[];
  tid?: number;
  hids: number[];
  audience: NoticeItem['audience'];
  channels: NoticeItem['channels'];
  sms_template_id?: number;
  send_at?: Dayjs | null;
  valid_until?: Dayjs | null;
  pinned: boolean;
}

const LIST = '/steward/notices';
const MINUTE = 'YYYY-MM-DD HH:mm';

/**
 * A multiple picker's options: the listed ones under their full names, then the chosen ones of
 * other buildings or units, so their tags keep their names.
 */
function chosenOptions(
  listed: { value: number | string; label: unknown }[],
  prefix: string,
  chosen: number[],
  names: Record<string, string>,
  kind: 'unit' | 'room',
) {
  const options = listed.map((o) => ({ value: Number(o.value), label: prefix + String(o.label) }));
  const here = new Set(options.map((o) => o.value));
  for (const c of chosen) if (!here.has(c)) options.push({ value: c, label: names[`${kind}:${c}`] || String(c) });
  return options;
}

/** The scope's ids from the pickers. */
const scopeIds = (v: Pick<NoticeForm, 'scope' | 'bids' | 'tids' | 'hids'>) =>
  v.scope === 'building' ? (v.bids ?? []) : v.scope === 'unit' ? (v.tids ?? []) : v.scope === 'room' ? (v.hids ?? []) : [];

/**
 * /steward/noticesadd and /steward/noticesedit?id= (docs/product.md#notices): title, type, cover,
 * the body in the editor, scope (the community, buildings, units or rooms of any buildings),
 * audience, channels, schedule, valid-until, pinned, with the households in scope counted as the
 * scope changes. A published notice changes only its valid-until and pinned.
 */
export default function NoticeEdit() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<NoticeForm>();
  const [saving, setSaving] = useState(false);
  const [loaded, setLoaded] = useState<NoticeItem | null>(null);
  const locked = !!loaded && loaded.status !== 'D' && loaded.status !== 'S';

  const scope = (Form.useWatch('scope', form) ?? 'all') as NoticeForm['scope'];
  const bids = Form.useWatch('bids', form) ?? [];
  const bid = Form.useWatch('bid', form);
  const tids = Form.useWatch('tids', form) ?? [];
  const tid = Form.useWatch('tid', form);
  const hids = Form.useWatch('hids', form) ?? [];
  const audience = (Form.useWatch('audience', form) ?? 'all') as NoticeForm['audience'];
  const channels = Form.useWatch('channels', form) ?? [];

  const buildings = useSmallList('building_small_list', {});
  const units = useSmallList('unit_small_list', bid ? { bid } : null);
  const rooms = useSmallList('room_small_list', tid ? { tid } : null);
  // the building and unit pickers only browse: units and rooms chosen under another one stay
  // chosen, shown by the full names learnt when they were listed (or from the saved notice)
  const [names, setNames] = useState<Record<string, string>>({});
  const titleOf = (list: { value: number | string; label: unknown }[], v: number | undefined) =>
    String(list.find((o) => o.value === v)?.label ?? '');
  const unitPrefix = titleOf(buildings.options, bid);
  const roomPrefix = unitPrefix + titleOf(units.options, tid);
  const unitOptions = chosenOptions(units.options, unitPrefix, tids, names, 'unit');
  const roomOptions = chosenOptions(rooms.options, roomPrefix, hids, names, 'room');
  useEffect(() => {
    const learnt = [
      ...(bid ? units.options.map((o) => [`unit:${o.value}`, unitPrefix + String(o.label)]) : []),
      ...(tid ? rooms.options.map((o) => [`room:${o.value}`, roomPrefix + String(o.label)]) : []),
    ];
    if (learnt.some(([k, v]) => names[k!] !== v)) setNames((n) => ({ ...n, ...Object.fromEntries(learnt) }));
  }, [bid, tid, units.options, rooms.options, unitPrefix, roomPrefix, names]);
  const templates = useQuery({ queryKey: ['notice_sms_template_small_list'], queryFn: () => call('notice_sms_template_small_list', {}) });

  const ids = scopeIds({ scope, bids, tids, hids });
  const reach = useQuery({
    queryKey: ['noticereach', scope, ids, audience],
    queryFn: () => call('noticereach', { scope, scope_ids: ids, audience }),
    enabled: scope === 'all' || ids.length > 0,
    retry: false,
  });

  useEffect(() => {
    if (!id) return;
    call('noticeinfo', { id })
      .then((n) => {
        setLoaded(n);
        if (n.scope === 'unit' || n.scope === 'room')
          setNames((known) => ({
            ...known,
            ...Object.fromEntries(n.scope_ids.map((sid, i) => [`${n.scope}:${sid}`, n.scope_names[i] ?? ''])),
          }));
        form.setFieldsValue({
          title: n.title,
          type: n.type,
          cover: n.cover ? [n.cover] : [],
          body: n.body,
          scope: n.scope,
          bids: n.scope === 'building' ? n.scope_ids : [],
          bid: n.scope_bids[0],
          tids: n.scope === 'unit' ? n.scope_ids : [],
          tid: n.scope_tids[0],
          hids: n.scope === 'room' ? n.scope_ids : [],
          audience: n.audience,
          channels: n.channels,
          sms_template_id: n.sms_template_id || undefined,
          send_at: n.send_time && n.status !== 'P' && n.status !== 'X' ? dayjs(n.send_time) : null,
          valid_until: n.valid_until ? dayjs(n.valid_until) : null,
          pinned: n.pinned === 'Y',
        });
      })
      .catch(() => void navigate(LIST, { replace: true }));
  }, [id, form, navigate]);

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    const payload = {
      title: v.title,
      type: v.type,
      cover: v.cover?.[0] ?? '',
      body: v.body ?? '',
      scope: v.scope,
      scope_ids: scopeIds(v),
      audience: v.audience,
      channels: v.channels,
      sms_template_id: v.channels.includes('sms') ? v.sms_template_id : undefined,
      send_at: v.send_at ? v.send_at.format(MINUTE) : '',
      valid_until: v.valid_until ? v.valid_until.format(MINUTE) : '',
      pinned: v.pinned ? ('Y' as const) : ('N' as const),
    };
    setSaving(true);
    try {
      const answer = id ? await request('noticeedit', { ...payload, id }) : await request('noticeadd', payload);
      noticeSuccess(answer.return_msg ?? '操作成功');
      void queryClient.invalidateQueries({ queryKey: ['list', 'noticelist'] });
      void navigate(LIST);
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  const r = reach.data;
  return (
    <Card title={id ? '编辑公告' : '发布公告'} data-testid="notice-form" className="notice-form">
      {locked && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="公告已发布，只能修改有效期和置顶；如需更正内容，请在列表中复制后重新发布"
          data-testid="notice-locked"
        />
      )}
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ xs: { span: 24 }, sm: { span: 4 } }}
        wrapperCol={{ xs: { span: 24 }, sm: { span: 18 } }}
        initialValues={{
          type: 'notice',
          scope: 'all',
          audience: 'all',
          channels: ['app'],
          pinned: false,
          cover: [],
          bids: [],
          tids: [],
          hids: [],
        }}
        disabled={saving}
      >
        <Form.Item
          name="title"
          label="标题"
          rules={[{ required: true, whitespace: true, message: '请输入标题' }, { max: NOTICE_TITLE_MAX }]}
        >
          <Input maxLength={NOTICE_TITLE_MAX} showCount disabled={locked} data-testid="notice-title" />
        </Form.Item>
        <Form.Item name="type" label="类型" rules={[{ required: true, message: '请选择类型' }]}>
          <Select options={enumOptions(NOTICE_TYPE)} style={{ maxWidth: 200 }} disabled={locked} data-testid="notice-type" />
        </Form.Item>
        <Form.Item name="cover" label="封面">
          {locked ? (
            <CoverView url={loaded?.cover} />
          ) : (
            // antd's form styles show a file input despite `hidden`: notices.css hides it again
            <PhotosInput max={1} testId="notice-cover" />
          )}
        </Form.Item>
        <Form.Item name="body" label="内容" rules={[{ required: true, message: '请输入公告内容' }]}>
          {locked ? (
            <div className="notice-body notice-preview" dangerouslySetInnerHTML={{ __html: loaded?.body ?? '' }} />
          ) : (
            <NoticeEditor />
          )}
        </Form.Item>
        <Form.Item name="scope" label="范围">
          <Radio.Group
            options={enumOptions(NOTICE_SCOPE)}
            disabled={locked}
            data-testid="notice-scope"
            onChange={() => form.setFieldsValue({ bids: [], tids: [], hids: [] })}
          />
        </Form.Item>
        {scope === 'building' && (
          <Form.Item name="bids" label="楼栋" rules={[{ required: true, message: '请选择楼栋' }]}>
            <Select
              mode="multiple"
              options={buildings.options}
              placeholder="选择楼栋（可多选）"
              disabled={locked}
              data-testid="notice-bids"
            />
          </Form.Item>
        )}
        {(scope === 'unit' || scope === 'room') && (
          <Form.Item name="bid" label="楼栋">
            <Select
              options={buildings.options}
              placeholder="选择楼栋"
              disabled={locked}
              style={{ maxWidth: 240 }}
              onChange={() => form.setFieldsValue({ tid: undefined })}
              data-testid="notice-bid"
            />
          </Form.Item>
        )}
        {scope === 'unit' && (
          <Form.Item name="tids" label="单元" rules={[{ required: true, message: '请选择单元' }]}>
            <Select
              mode="multiple"
              options={unitOptions}
              placeholder="选择单元（可多选，换楼栋继续选）"
              disabled={locked || (!bid && tids.length === 0)}
              optionFilterProp="label"
              data-testid="notice-tids"
            />
          </Form.Item>
        )}
        {scope === 'room' && (
          <>
            <Form.Item name="tid" label="单元">
              <Select
                options={units.options}
                placeholder="选择单元"
                disabled={locked || !bid}
                style={{ maxWidth: 240 }}
                data-testid="notice-tid"
              />
            </Form.Item>
            <Form.Item name="hids" label="房屋" rules={[{ required: true, message: '请选择房屋' }]}>
              <Select
                mode="multiple"
                options={roomOptions}
                placeholder="选择房屋（可多选，换单元继续选）"
                disabled={locked || (!tid && hids.length === 0)}
                optionFilterProp="label"
                data-testid="notice-hids"
              />
            </Form.Item>
          </>
        )}
        <Form.Item name="audience" label="受众">
          <Radio.Group options={enumOptions(NOTICE_AUDIENCE)} disabled={locked} data-testid="notice-audience" />
        </Form.Item>
        <Form.Item label="触达户数">
          <Typography.Text data-testid="notice-reach">
            {locked
              ? `发布时送达 ${loaded?.households ?? 0} 户，已读 ${loaded?.read_households ?? 0} 户`
              : scope !== 'all' && ids.length === 0
                ? '请选择范围'
                : r
                  ? `范围内 ${r.households} 户：App/微信可达 ${r.app} 户，仅短信可达 ${r.sms_only} 户${r.rooms_without_residents ? `（另有 ${r.rooms_without_residents} 间房屋无人入住）` : ''}`
                  : '计算中…'}
          </Typography.Text>
        </Form.Item>
        <Form.Item name="channels" label="渠道" rules={[{ required: true, message: '请至少选择一个发布渠道' }]}>
          <Checkbox.Group options={enumOptions(NOTICE_CHANNEL)} disabled={locked} data-testid="notice-channels" />
        </Form.Item>
        {channels.includes('sms') && (
          <Form.Item
            name="sms_template_id"
            label="短信模板"
            rules={[{ required: true, message: '请选择短信模板' }]}
            extra="发布时向仅能短信触达的户的业主发送；模板须在“系统设置 → 短信”中审核通过"
          >
            <Select
              options={(templates.data?.items ?? []).map((t) => ({ value: t.id, label: `${t.title}：${t.content}` }))}
              placeholder="选择已审核的短信模板"
              disabled={locked}
              data-testid="notice-template"
            />
          </Form.Item>
        )}
        <Form.Item name="send_at" label="定时发布" extra="不填则在点击“发布”时立即发布">
          <DatePicker showTime={{ format: 'HH:mm' }} format={MINUTE} disabled={locked} inputReadOnly data-testid="notice-send-at" />
        </Form.Item>
        <Form.Item name="valid_until" label="有效期至" extra="过期后住户端不再显示；紧急公告必填">
          <DatePicker showTime={{ format: 'HH:mm' }} format={MINUTE} inputReadOnly data-testid="notice-valid-until" />
        </Form.Item>
        <Form.Item name="pinned" label="置顶" valuePropName="checked">
          <Switch data-testid="notice-pinned" />
        </Form.Item>
        <Form.Item wrapperCol={{ xs: { span: 24 }, sm: { offset: 4, span: 18 } }}>
          <Space>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="notice-save">
              {locked ? '保存' : '保存草稿'}
            </Button>
            <Button onClick={() => void navigate(LIST)}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}

function CoverView({ url }: { url?: string }) {
  return url ? (
    <img src={url} alt="封面" className="notice-cover" style={{ maxWidth: 240 }} />
  ) : (
    <Typography.Text type="secondary">无</Typography.Text>
  );
}
