import { useState } from 'react';
import {
  App,
  Button,
  Checkbox,
  DatePicker,
  Divider,
  Form,
  Grid,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useNavigate } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import { DownloadOutlined } from '@ant-design/icons';
import {
  COMMUNITY_MODULE_KEYS,
  COMMUNITY_MODULES,
  MAP_POINT_RE,
  REGION_EXPIRY,
  REGION_STATUS,
  type CommunityModule,
  type LeaderRegion,
  type RegionExpiry,
} from '@wuye/contract';
import { useList } from '../../api/useList';
import { call } from '../../api/client';
import { PageCard, save } from './shared';
import { usePagination } from '../../components/resource';
import { enumOptions, validValues } from '../../utils/forms';
import { moneyColumn } from '../../components/Money';
import { CoverInput } from '../mobilesys/widgets';
import { saveFile } from '../../utils/files';

interface RegionForm {
  title: string;
  province: string;
  city: string;
  district: string;
  address: string;
  phone: string;
  area: string;
  map_point: string;
  service_qr: string;
  end_time: Dayjs;
  price_per_year: string;
  status: 'Y' | 'N';
  logo_url: string;
  region_img: string;
  copyright: string;
  /** a new community's modules and first administrator */
  modules?: CommunityModule[];
  admin_username?: string;
  admin_name?: string;
  admin_mobile?: string;
}

interface RegionFilters {
  title: string;
  status: '' | 'Y' | 'N';
  expiry: '' | RegionExpiry;
}

const MODULE_OPTIONS = COMMUNITY_MODULE_KEYS.map((k) => ({ value: k, label: COMMUNITY_MODULES[k] }));

/** The modules a community has open: all, or how many, with the closed ones on hover. */
function ModulesTag({ modules }: { modules: readonly CommunityModule[] }) {
  if (modules.length === COMMUNITY_MODULE_KEYS.length) return <Tag color="success">全部开通</Tag>;
  const closed = COMMUNITY_MODULE_KEYS.filter((k) => !modules.includes(k)).map((k) => COMMUNITY_MODULES[k]);
  return (
    <Tooltip title={`未开通：${closed.join('、')}`}>
      <Tag color="warning">
        开通 {modules.length}/{COMMUNITY_MODULE_KEYS.length}
      </Tag>
    </Tooltip>
  );
}

const DECIMAL = /^\d{1,12}(\.\d{1,2})?$/;

export function DaysLeftTag({ days }: { days: number }) {
  if (days < 0) return <Tag color="error">已过期 {-days} 天</Tag>;
  return <Tag color={days < 30 ? 'warning' : 'success'}>剩余 {days} 天</Tag>;
}

/** /leader/regions/index: the group's communities with end dates, add, edit and manual extension. */
export default function LeaderRegions() {
  const list = useList('leaderregionlist', { title: '', status: '', expiry: '' });
  const paging = usePagination(list);
  const navigate = useNavigate();
  const phone = Grid.useBreakpoint().md === false;
  const { modal } = App.useApp();
  const [filters, setFilters] = useState<RegionFilters>({ title: '', status: '', expiry: '' });
  const [exporting, setExporting] = useState(false);
  // the list's filters as applied (not as being typed)
  const exportRegions = async () => {
    setExporting(true);
    try {
      saveFile(
        await call('leaderregionexport', {
          title: list.filters.title ?? '',
          status: list.filters.status ?? '',
          expiry: list.filters.expiry ?? '',
        }),
      );
    } catch {
      /* shown by the client */
    } finally {
      setExporting(false);
    }
  };
  const [editing, setEditing] = useState<LeaderRegion | 'new' | null>(null);
  // the communities to extend: one from its row, or those selected (批量延期)
  const [extending, setExtending] = useState<LeaderRegion[] | null>(null);
  const [selected, setSelected] = useState<LeaderRegion[]>([]);
  const [form] = Form.useForm<RegionForm>();
  // the community whose modules are being set, and the first administrator's one-time password once made
  const [moduling, setModuling] = useState<LeaderRegion | null>(null);
  const [modules, setModules] = useState<CommunityModule[]>([]);
  const [firstAdmin, setFirstAdmin] = useState<{ username: string; password: string } | null>(null);
  const [delayForm] = Form.useForm<{ months: number; remark: string }>();

  const open = (row: LeaderRegion | 'new') => {
    form.setFieldsValue(
      row === 'new'
        ? {
            title: '',
            province: '',
            city: '',
            district: '',
            address: '',
            phone: '',
            area: '0',
            map_point: '',
            service_qr: '',
            end_time: dayjs().add(1, 'year'),
            price_per_year: '3600.00',
            status: 'Y',
            logo_url: '',
            region_img: '',
            copyright: '',
            modules: [...COMMUNITY_MODULE_KEYS],
            admin_username: '',
            admin_name: '',
            admin_mobile: '',
          }
        : { ...row, end_time: dayjs(row.end_time) },
    );
    setEditing(row);
  };
  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    const { modules: chosen, admin_username, admin_name, admin_mobile, ...fields } = v;
    const payload = { ...fields, end_time: v.end_time.format('YYYY-MM-DD') };
    try {
      if (editing === 'new') {
        const admin = admin_username ? { username: admin_username, name: admin_name ?? '', mobile: admin_mobile ?? '' } : undefined;
        const made = await save('leaderregionadd', { ...payload, modules: chosen ?? [], ...(admin ? { admin } : {}) });
        if (made.admin) setFirstAdmin(made.admin);
      } else if (editing) await save('leaderregionedit', { id: editing.id, ...payload });
      setEditing(null);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };
  const openModules = (row: LeaderRegion) => {
    setModules([...row.modules]);
    setModuling(row);
  };
  const saveModules = async () => {
    if (!moduling) return;
    try {
      await save('leaderregionmodules', { rid: moduling.id, modules });
      setModuling(null);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };
  // the console moves into the community as its administrator; the group side is signed in again to return
  const enter = (row: LeaderRegion) =>
    modal.confirm({
      title: `进入${row.title}`,
      content: '将以该小区管理员的权限进入小区后台（操作记入操作日志）。右上角用户菜单中的“返回集团”回到集团端。',
      okText: '进入',
      okButtonProps: { 'data-testid': 'leader-region-enter-ok' } as Record<string, string>,
      onOk: async () => {
        const answer = await call('leaderregionenter', { rid: row.id, redirect: '/dashboard' });
        window.location.assign(answer.url);
      },
    });
  const startExtending = (rows: LeaderRegion[]) => {
    delayForm.setFieldsValue({ months: 12, remark: '' });
    setExtending(rows);
  };
  const extend = async () => {
    if (!extending) return;
    const v = await validValues(delayForm);
    if (!v) return;
    try {
      if (extending.length === 1) await save('leaderregiondelay', { rid: extending[0]!.id, ...v });
      else await save('leaderregiondelaybatch', { rids: extending.map((r) => r.id), ...v });
      setExtending(null);
      setSelected([]);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };

  return (
    <PageCard
      title="小区管理"
      extra={
        <Space>
          <Button disabled={selected.length === 0} onClick={() => startExtending(selected)} data-testid="leader-region-delay-batch">
            批量延期{selected.length ? `（${selected.length}）` : ''}
          </Button>
          <Button onClick={() => void navigate('/leader/regions/regiondelaylog')}>续费记录</Button>
          <Button type="primary" onClick={() => open('new')} data-testid="leader-region-add">
            新增小区
          </Button>
        </Space>
      }
    >
      <Space style={{ marginBottom: 16 }} wrap>
        <Input
          placeholder="小区名称/地区/地址"
          allowClear
          value={filters.title}
          onChange={(e) => setFilters({ ...filters, title: e.target.value })}
          onPressEnter={() => list.setFilters(filters)}
          data-testid="leader-region-title"
        />
        <Select
          style={{ width: 110 }}
          value={filters.status}
          onChange={(status) => setFilters({ ...filters, status })}
          options={[{ value: '', label: '全部状态' }, ...enumOptions(REGION_STATUS)]}
          data-testid="leader-region-status"
        />
        <Select
          style={{ width: 140 }}
          value={filters.expiry}
          onChange={(expiry) => setFilters({ ...filters, expiry })}
          options={[{ value: '', label: '全部到期状态' }, ...enumOptions(REGION_EXPIRY)]}
          data-testid="leader-region-expiry"
        />
        <Button type="primary" onClick={() => list.setFilters(filters)} data-testid="leader-region-search">
          搜索
        </Button>
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportRegions()} data-testid="leader-region-export">
          导出
        </Button>
      </Space>
      <Table<LeaderRegion>
        rowKey="id"
        loading={list.loading}
        dataSource={list.items}
        pagination={paging}
        scroll={{ x: 1540 }}
        data-testid="leader-region-table"
        rowSelection={{
          selectedRowKeys: selected.map((r) => r.id),
          preserveSelectedRowKeys: true,
          onChange: (_keys, rows) => setSelected(rows),
        }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 70 },
          { title: '小区名称', dataIndex: 'title', width: 140 },
          {
            title: '地址',
            key: 'address',
            width: 220,
            ellipsis: true,
            render: (_: unknown, r) => [r.province, r.city, r.district, r.address].filter(Boolean).join(' '),
          },
          { title: '联系电话', dataIndex: 'phone', width: 130 },
          { title: '楼栋/房屋', key: 'count', width: 100, render: (_: unknown, r) => `${r.building_count} / ${r.room_count}` },
          { title: '到期日', dataIndex: 'end_time', width: 110 },
          { title: '剩余', dataIndex: 'days_left', width: 120, render: (d: number) => <DaysLeftTag days={d} /> },
          moneyColumn('续费单价（元/年）', 'price_per_year', { width: 140 }),
          {
            title: '功能模块',
            dataIndex: 'modules',
            width: 120,
            render: (m: CommunityModule[], r) => (
              <span data-testid={`leader-region-modules-${r.id}`}>
                <ModulesTag modules={m} />
              </span>
            ),
          },
          {
            title: '状态',
            dataIndex: 'status',
            width: 80,
            render: (s: string) => (s === 'Y' ? <Tag color="success">启用</Tag> : <Tag>停用</Tag>),
          },
          {
            title: '操作',
            key: 'op',
            width: 270,
            // on a phone a fixed column would cover the names: the row scrolls as a whole
            fixed: phone ? undefined : 'right',
            render: (_: unknown, row: LeaderRegion) => (
              <Space>
                <Button size="small" onClick={() => open(row)}>
                  编辑
                </Button>
                <Button size="small" onClick={() => openModules(row)} data-testid={`leader-region-module-open-${row.id}`}>
                  模块
                </Button>
                <Button size="small" onClick={() => enter(row)} data-testid={`leader-region-enter-${row.id}`}>
                  进入
                </Button>
                <Button size="small" onClick={() => startExtending([row])}>
                  延期
                </Button>
                <Button size="small" onClick={() => void navigate(`/leader/regions/regiondelaylog?rid=${row.id}`)}>
                  记录
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        title={editing === 'new' ? '新增小区' : '编辑小区'}
        open={editing !== null}
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
        width={640}
      >
        <Form form={form} layout="vertical">
          <Form.Item name="title" label="小区名称" rules={[{ required: true, whitespace: true, message: '请输入小区名称' }, { max: 60 }]}>
            <Input />
          </Form.Item>
          <Space size="large" wrap>
            <Form.Item name="province" label="省" rules={[{ max: 20 }]}>
              <Input style={{ width: 150 }} placeholder="如 浙江省" />
            </Form.Item>
            <Form.Item name="city" label="市" rules={[{ max: 20 }]}>
              <Input style={{ width: 150 }} placeholder="如 杭州市" />
            </Form.Item>
            <Form.Item name="district" label="区/县" rules={[{ max: 20 }]}>
              <Input style={{ width: 150 }} placeholder="如 西湖区" />
            </Form.Item>
          </Space>
          <Form.Item name="address" label="详细地址" rules={[{ max: 200 }]}>
            <Input />
          </Form.Item>
          <Space size="large" wrap>
            <Form.Item name="phone" label="服务电话" rules={[{ pattern: /^[\d\-+() ]{5,30}$/, message: '服务电话格式不正确' }]}>
              <Input />
            </Form.Item>
            <Form.Item name="area" label="占地面积（㎡）" rules={[{ pattern: DECIMAL, message: '最多两位小数' }]}>
              <Input />
            </Form.Item>
          </Space>
          <Form.Item
            name="map_point"
            label="地图坐标"
            extra="经度,纬度（从地图服务的坐标拾取获得），如 120.15507,30.274084"
            rules={[{ pattern: MAP_POINT_RE, message: '地图坐标格式应为“经度,纬度”，如 116.397428,39.90923' }]}
          >
            <Input data-testid="leader-region-map-point" placeholder="120.15507,30.274084" />
          </Form.Item>
          <Form.Item name="service_qr" label="客服二维码" extra="业主在 App 中“联系物业”看到的二维码">
            <CoverInput testId="leader-region-service-qr" />
          </Form.Item>
          <Space size="large" wrap>
            <Form.Item name="end_time" label="服务到期日" rules={[{ required: true, message: '请选择到期日' }]}>
              <DatePicker inputReadOnly allowClear={false} />
            </Form.Item>
            <Form.Item
              name="price_per_year"
              label="续费单价（元/年）"
              rules={[
                { required: true, message: '请输入续费单价' },
                { pattern: DECIMAL, message: '金额格式不正确' },
              ]}
            >
              <Input />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select
                style={{ width: 100 }}
                options={[
                  { value: 'Y', label: '启用' },
                  { value: 'N', label: '停用' },
                ]}
              />
            </Form.Item>
          </Space>
          <Form.Item name="logo_url" label="Logo 地址">
            <Input />
          </Form.Item>
          <Form.Item name="region_img" label="小区平面图地址">
            <Input />
          </Form.Item>
          <Form.Item name="copyright" label="版权信息">
            <Input />
          </Form.Item>
          {editing === 'new' && (
            <>
              <Form.Item name="modules" label="开通的功能模块">
                <Checkbox.Group options={MODULE_OPTIONS} data-testid="leader-region-add-modules" />
              </Form.Item>
              <Divider plain>小区管理员（可选，生成一次性密码，首次登录须修改）</Divider>
              <Space size="large" wrap>
                <Form.Item
                  name="admin_username"
                  label="管理员账号"
                  rules={[{ pattern: /^[A-Za-z0-9_]{4,30}$/, message: '账号为4到30位字母、数字或下划线' }]}
                >
                  <Input data-testid="leader-region-admin-username" />
                </Form.Item>
                <Form.Item
                  name="admin_name"
                  label="姓名"
                  dependencies={['admin_username']}
                  rules={[
                    ({ getFieldValue }) => ({
                      validator: (_r, v: string | undefined) =>
                        !getFieldValue('admin_username') || (v && v.trim().length >= 2 && v.trim().length <= 10)
                          ? Promise.resolve()
                          : Promise.reject(new Error('姓名为2到10个字')),
                    }),
                  ]}
                >
                  <Input data-testid="leader-region-admin-name" />
                </Form.Item>
                <Form.Item
                  name="admin_mobile"
                  label="手机号"
                  rules={[{ pattern: /^1\d{10}$/, message: '手机号码格式不正确，应为11位手机号' }]}
                >
                  <Input />
                </Form.Item>
              </Space>
            </>
          )}
        </Form>
      </Modal>
      <Modal
        title={`功能模块：${moduling?.title ?? ''}`}
        open={moduling !== null}
        onOk={() => void saveModules()}
        onCancel={() => setModuling(null)}
        destroyOnHidden
      >
        <p>未开通的模块在该小区关闭：页面与菜单不显示，接口返回无权限。</p>
        <Checkbox.Group
          options={MODULE_OPTIONS}
          value={modules}
          onChange={(v) => setModules(v)}
          data-testid="leader-region-modules-form"
          style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', rowGap: 8 }}
        />
      </Modal>
      <Modal
        open={firstAdmin !== null}
        title={`小区管理员 ${firstAdmin?.username ?? ''} 的一次性密码`}
        onOk={() => setFirstAdmin(null)}
        onCancel={() => setFirstAdmin(null)}
        cancelButtonProps={{ hidden: true }}
        okText="我已记下"
      >
        <p>一次性密码只显示这一次，请告知管理员，登录后须立即修改：</p>
        <Typography.Paragraph
          copyable={{ text: firstAdmin?.password }}
          style={{ fontSize: 20, fontFamily: 'monospace' }}
          data-testid="leader-region-admin-password"
        >
          {firstAdmin?.password}
        </Typography.Paragraph>
      </Modal>
      <Modal
        title={extending && extending.length > 1 ? `批量延期：${extending.length} 个小区` : `延期：${extending?.[0]?.title ?? ''}`}
        open={extending !== null}
        onOk={() => void extend()}
        onCancel={() => setExtending(null)}
        destroyOnHidden
      >
        {extending && extending.length > 1 ? (
          <p data-testid="leader-region-delay-list">
            {extending.map((r) => `${r.title}（${r.end_time}）`).join('、')}：各自从当前到期日延长，已过期的从今天起算
          </p>
        ) : (
          <p>当前到期日：{extending?.[0]?.end_time}（已过期的从今天起算）</p>
        )}
        <Form form={delayForm} layout="vertical">
          <Form.Item name="months" label="延长月数" rules={[{ required: true, message: '请输入延长月数' }]}>
            <InputNumber min={1} max={120} precision={0} />
          </Form.Item>
          <Form.Item name="remark" label="备注" rules={[{ max: 200 }]}>
            <Input placeholder="如 合同续签" />
          </Form.Item>
        </Form>
      </Modal>
    </PageCard>
  );
}
