import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Drawer,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  TimePicker,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { CalculatorOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { CAR_TYPE } from '@wuye/contract/owners/cars';
import {
  TEMP_FEE_ROLES,
  type TempFeeCalcAnswer,
  type TempFeeStandardItem,
  type TempFeeVersion,
} from '@wuye/contract/carpark/tempFeeConfig';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import MoneyInput from '../../components/MoneyInput';
import { moneyColumn } from '../../components/Money';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import { SmallSelect, useCanWrite } from '../../components/resource';
import { formatMoney } from '../../utils/formatMoney';
import { FeeBreakdown } from './FeeBreakdown';

type CarType = 'small' | 'large' | 'new_energy';
const WIRE = 'YYYY-MM-DD HH:mm:ss';

interface RuleForm {
  lot_id?: number;
  car_type?: CarType;
  effective_from?: Dayjs | null;
  free_minutes: number;
  first_minutes: number;
  first_price: string;
  step_minutes: number;
  step_price: string;
  cap_amount: string;
  band: boolean;
  peak: [Dayjs, Dayjs];
  off_first_price: string;
  off_step_price: string;
  holidays: Dayjs[];
  remark: string;
}

const hm = (v: string) => dayjs(`2000-01-01 ${v}`);
const NEW_RULE: RuleForm = {
  free_minutes: 15,
  first_minutes: 60,
  first_price: '',
  step_minutes: 30,
  step_price: '',
  cap_amount: '0',
  band: false,
  peak: [hm('08:00'), hm('20:00')],
  off_first_price: '0',
  off_step_price: '0',
  holidays: [],
  remark: '',
};

const ruleOf = (r: TempFeeStandardItem): RuleForm => ({
  free_minutes: r.free_minutes,
  first_minutes: r.first_minutes,
  first_price: r.first_price,
  step_minutes: r.step_minutes,
  step_price: r.step_price,
  cap_amount: r.cap_amount,
  band: r.band === 'Y',
  peak: [hm(r.peak_start), hm(r.peak_end)],
  off_first_price: r.off_first_price,
  off_step_price: r.off_step_price,
  holidays: r.holidays.map((d) => dayjs(d)),
  remark: '',
});

const payloadOf = (v: RuleForm) => ({
  free_minutes: v.free_minutes,
  first_minutes: v.first_minutes,
  first_price: v.first_price,
  step_minutes: v.step_minutes,
  step_price: v.step_price,
  cap_amount: v.cap_amount || '0',
  band: v.band ? ('Y' as const) : ('N' as const),
  peak_start: v.peak[0].format('HH:mm'),
  peak_end: v.peak[1].format('HH:mm'),
  off_first_price: v.off_first_price || '0',
  off_step_price: v.off_step_price || '0',
  holidays: (v.holidays ?? []).map((d) => d.format('YYYY-MM-DD')),
  remark: v.remark ?? '',
});

const money = [{ required: true, message: '请填写金额' }];
const minutes = (label: string, min: number, testId: string) => (
  <InputNumber min={min} max={1440} precision={0} addonAfter="分钟" style={{ width: 150 }} aria-label={label} data-testid={testId} />
);

/** Add a standard (lot and car kind) or edit one: an edit saves a new version from a time. */
function TempFeeForm({
  editing,
  open,
  onClose,
}: {
  editing: TempFeeStandardItem | null;
  open: boolean;
  onClose: (saved: boolean) => void;
}) {
  const [form] = Form.useForm<RuleForm>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(editing ? { ...ruleOf(editing), effective_from: null } : NEW_RULE);
  }, [open, editing, form]);
  const band = Form.useWatch('band', form);
  const save = async () => {
    // the fields hidden while bands are off (peak, off-peak prices) keep their values in the store
    const v = { ...(form.getFieldsValue(true) as RuleForm), ...(await form.validateFields()) };
    setSaving(true);
    try {
      const answer = editing
        ? await request('tempfeeconfigedit', {
            id: editing.id,
            effective_from: v.effective_from ? v.effective_from.format(WIRE) : '',
            ...payloadOf(v),
          })
        : await request('tempfeeconfigadd', { lot_id: v.lot_id!, car_type: v.car_type!, ...payloadOf(v) });
      noticeSuccess(answer.return_msg);
      onClose(true);
    } catch {
      /* the client showed why */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={editing ? `修改收费标准：${editing.lot_title} · ${editing.car_type_ch}` : '新增临时车收费标准'}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      okButtonProps={{ loading: saving, 'data-testid': 'tempfee-save' } as never}
      width={680}
      destroyOnHidden
      forceRender
    >
      {editing && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message="保存后生成新版本，自生效时间起入场的车按新版本计费；旧版本保留，已入场的车仍按入场时的版本计费。"
        />
      )}
      <Form form={form} layout="horizontal" labelCol={{ span: 6 }} data-testid="tempfee-form">
        {editing ? (
          <Form.Item name="effective_from" label="生效时间" extra="不填为立即生效">
            <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" style={{ width: 220 }} data-testid="tempfee-effective" />
          </Form.Item>
        ) : (
          <>
            <Form.Item name="lot_id" label="停车场" rules={[{ required: true, message: '请选择停车场' }]}>
              <SmallSelect widget={{ small: 'car_parking_small_list' }} values={{}} testId="tempfee-lot" style={{ width: 220 }} />
            </Form.Item>
            <Form.Item name="car_type" label="车辆类型" rules={[{ required: true, message: '请选择车辆类型' }]}>
              <Select options={enumOptions(CAR_TYPE)} style={{ width: 220 }} data-testid="tempfee-car-type" />
            </Form.Item>
          </>
        )}
        <Form.Item
          name="free_minutes"
          label="免费时长"
          rules={[{ required: true, message: '请填写' }]}
          extra="不超过该时长免费；超过则从第0分钟起计费"
        >
          {minutes('免费时长', 0, 'tempfee-free')}
        </Form.Item>
        <Form.Item label="首段" required>
          <Space wrap>
            <Form.Item name="first_minutes" noStyle rules={[{ required: true, message: '请填写' }]}>
              {minutes('首段时长', 1, 'tempfee-first-minutes')}
            </Form.Item>
            <Form.Item name="first_price" noStyle rules={money}>
              <MoneyInput addonAfter="元" style={{ width: 130 }} data-testid="tempfee-first-price" />
            </Form.Item>
          </Space>
        </Form.Item>
        <Form.Item label="之后每" required extra="不足一段按一段计">
          <Space wrap>
            <Form.Item name="step_minutes" noStyle rules={[{ required: true, message: '请填写' }]}>
              {minutes('续段时长', 1, 'tempfee-step-minutes')}
            </Form.Item>
            <Form.Item name="step_price" noStyle rules={money}>
              <MoneyInput addonAfter="元" style={{ width: 130 }} data-testid="tempfee-step-price" />
            </Form.Item>
          </Space>
        </Form.Item>
        <Form.Item name="cap_amount" label="24小时封顶" extra="自入场起每24小时最多收取的金额，0 为不封顶；下一个24小时重新计费">
          <MoneyInput addonAfter="元" style={{ width: 150 }} data-testid="tempfee-cap" />
        </Form.Item>
        <Form.Item name="band" label="分时段计费" valuePropName="checked" extra="工作日高峰时段按上面的价格，夜间、周末和节假日按平峰价格">
          <Switch data-testid="tempfee-band" />
        </Form.Item>
        {band && (
          <>
            <Form.Item name="peak" label="高峰时段" rules={[{ required: true, message: '请选择时段' }]}>
              <TimePicker.RangePicker format="HH:mm" order={false} data-testid="tempfee-peak" />
            </Form.Item>
            <Form.Item label="平峰价格" required>
              <Space wrap>
                首段
                <Form.Item name="off_first_price" noStyle rules={money}>
                  <MoneyInput addonAfter="元" style={{ width: 120 }} data-testid="tempfee-off-first" />
                </Form.Item>
                每段
                <Form.Item name="off_step_price" noStyle rules={money}>
                  <MoneyInput addonAfter="元" style={{ width: 120 }} data-testid="tempfee-off-step" />
                </Form.Item>
              </Space>
            </Form.Item>
            <Form.Item name="holidays" label="节假日" extra="这些日期全天按平峰计费（本标准自己的列表）">
              <DatePicker multiple maxTagCount="responsive" style={{ width: 320 }} data-testid="tempfee-holidays" />
            </Form.Item>
          </>
        )}
        <Form.Item name="remark" label="备注">
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Every version of a standard, the one in force marked. */
function VersionsDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const info = useQuery({
    queryKey: ['tempfeeconfiginfo', id],
    queryFn: () => call('tempfeeconfiginfo', { id: id! }),
    enabled: id !== null,
  });
  const columns: TableColumnsType<TempFeeVersion> = [
    {
      title: '生效时间',
      dataIndex: 'effective_from',
      width: 170,
      render: (v: string, r) => (
        <Space size={4}>
          {v}
          {r.current && <Tag color="success">现行</Tag>}
        </Space>
      ),
    },
    { title: '规则', dataIndex: 'summary' },
    { title: '备注', dataIndex: 'remark', width: 120 },
    { title: '创建人', dataIndex: 'create_user', width: 90 },
    { title: '创建时间', dataIndex: 'create_time', width: 170 },
  ];
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      width={Math.min(960, window.innerWidth)}
      title={info.data ? `${info.data.lot_title} · ${info.data.car_type_ch}的版本` : '版本'}
      destroyOnHidden
    >
      <Table<TempFeeVersion>
        rowKey="id"
        size="small"
        loading={info.isFetching}
        columns={columns}
        dataSource={info.data?.versions ?? []}
        pagination={false}
        scroll={{ x: 760 }}
        data-testid="tempfee-versions"
      />
    </Drawer>
  );
}

interface CalcForm {
  lot_id?: number;
  car_type?: CarType;
  entry?: Dayjs;
  exit?: Dayjs;
  coupon_ids?: number[];
}

/** The "what if" calculator: any entry and exit priced with the version in force at the entry. */
function Calculator() {
  const [form] = Form.useForm<CalcForm>();
  const [answer, setAnswer] = useState<TempFeeCalcAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const lotId = Form.useWatch('lot_id', form);
  const coupons = useQuery({
    queryKey: ['res', 'parkcoupon', 'list', 'calc', lotId],
    queryFn: () => call('parkcouponlist', { lot_id: lotId, status: 'Y', limit: 200 }),
    enabled: !!lotId,
  });
  const run = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      setAnswer(
        await call('tempfeecalc', {
          lot_id: v.lot_id!,
          car_type: v.car_type!,
          entry_time: v.entry!.format(WIRE),
          exit_time: v.exit!.format(WIRE),
          coupon_ids: v.coupon_ids ?? [],
        }),
      );
    } catch {
      setAnswer(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card
      size="small"
      title={
        <Space>
          <CalculatorOutlined />
          计费试算
        </Space>
      }
      style={{ marginBottom: 12 }}
      data-testid="tempfee-calc"
    >
      <Form
        form={form}
        layout="inline"
        style={{ rowGap: 8 }}
        initialValues={{ entry: dayjs().startOf('hour'), exit: dayjs().startOf('hour').add(130, 'minute') }}
        onFinish={() => void run()}
      >
        <Form.Item name="lot_id" label="停车场" rules={[{ required: true, message: '请选择停车场' }]}>
          <SmallSelect widget={{ small: 'car_parking_small_list' }} values={{}} testId="tempfee-calc-lot" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="car_type" label="车辆类型" rules={[{ required: true, message: '请选择车辆类型' }]}>
          <Select options={enumOptions(CAR_TYPE)} style={{ width: 120 }} data-testid="tempfee-calc-car-type" />
        </Form.Item>
        <Form.Item name="entry" label="入场" rules={[{ required: true, message: '请选择入场时间' }]}>
          <DatePicker showTime format={WIRE} style={{ width: 200 }} data-testid="tempfee-calc-entry" />
        </Form.Item>
        <Form.Item name="exit" label="出场" rules={[{ required: true, message: '请选择出场时间' }]}>
          <DatePicker showTime format={WIRE} style={{ width: 200 }} data-testid="tempfee-calc-exit" />
        </Form.Item>
        <Form.Item name="coupon_ids" label="停车劵">
          <Select
            mode="multiple"
            allowClear
            placeholder={lotId ? '可选' : '先选停车场'}
            style={{ minWidth: 180 }}
            options={(coupons.data?.items ?? []).map((c) => ({ value: c.id, label: `${c.title}（${c.face}）` }))}
            data-testid="tempfee-calc-coupons"
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="tempfee-calc-run">
            试算
          </Button>
        </Form.Item>
      </Form>
      {answer && (
        <div style={{ marginTop: 12 }} data-testid="tempfee-calc-result">
          <FeeBreakdown
            b={answer}
            version={`${answer.lot_title} · ${answer.car_type_ch}，${answer.version_from} 起生效的版本`}
            testId="tempfee-calc"
          />
        </div>
      )}
    </Card>
  );
}

/** 临时车收费标准 (/carpark/tempfee; docs/product.md#temporary-car-fees): standards per lot and car kind with versions, and the calculator. */
export default function TempFeeList() {
  const list = useList('tempfeeconfiglist', {});
  const canWrite = useCanWrite(TEMP_FEE_ROLES);
  const [editing, setEditing] = useState<TempFeeStandardItem | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [versions, setVersions] = useState<number | null>(null);
  const confirmDelete = useConfirmDelete();
  const close = (saved: boolean) => {
    setFormOpen(false);
    if (saved) list.reload();
  };
  const columns: TableColumnsType<TempFeeStandardItem> = [
    { title: '停车场', dataIndex: 'lot_title', width: 140 },
    { title: '车辆类型', dataIndex: 'car_type_ch', width: 90 },
    { title: '免费', dataIndex: 'free_minutes', width: 80, render: (v: number) => `${v}分钟` },
    { title: '首段', key: 'first', width: 130, render: (_, r) => `${r.first_minutes}分钟 ${formatMoney(r.first_price, { unit: '元' })}` },
    { title: '续段', key: 'step', width: 130, render: (_, r) => `每${r.step_minutes}分钟 ${formatMoney(r.step_price, { unit: '元' })}` },
    moneyColumn('24小时封顶', 'cap_amount', { width: 130 }),
    {
      title: '分时段',
      key: 'band',
      width: 200,
      render: (_, r) =>
        r.band === 'Y' ? `高峰${r.peak_start}–${r.peak_end}，平峰首段${r.off_first_price}元/每段${r.off_step_price}元` : '不分时段',
    },
    { title: '现行版本生效', dataIndex: 'effective_from', width: 170 },
    {
      title: '版本',
      key: 'versions',
      width: 130,
      render: (_, r) => (
        <Space size={4}>
          <a onClick={() => setVersions(r.id)} data-testid={`tempfee-versions-${r.id}`}>
            {r.version_count} 个版本
          </a>
          {r.next_from && <Tag color="warning">待生效 {r.next_from.slice(0, 16)}</Tag>}
        </Space>
      ),
    },
    {
      title: '操作',
      key: 'op',
      width: 130,
      fixed: 'right',
      render: (_, r) =>
        canWrite && (
          <Space size={4}>
            <Button
              type="link"
              size="small"
              onClick={() => {
                setEditing(r);
                setFormOpen(true);
              }}
              data-testid={`tempfee-edit-${r.id}`}
            >
              修改
            </Button>
            <Button
              type="link"
              size="small"
              danger
              onClick={() =>
                confirmDelete(async () => {
                  const answer = await request('tempfeeconfigdel', { id: r.id });
                  noticeSuccess(answer.return_msg);
                  list.reload();
                })
              }
              data-testid={`tempfee-del-${r.id}`}
            >
              删除
            </Button>
          </Space>
        ),
    },
  ];
  return (
    <div data-testid="tempfee-page">
      <Row>
        <Col span={24}>
          <Calculator />
        </Col>
      </Row>
      <TablePage<TempFeeStandardItem, { lot_id?: number; car_type?: CarType }>
        testId="tempfee-list"
        title="临时车收费标准"
        list={list}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 1300 } }}
        onSearch={(v) => list.setFilters({ lot_id: v.lot_id, car_type: v.car_type ?? '' })}
        filters={
          <>
            <Form.Item name="lot_id" label="停车场">
              <SmallSelect widget={{ small: 'car_parking_small_list' }} values={{}} style={{ width: 160 }} />
            </Form.Item>
            <Form.Item name="car_type" label="车辆类型">
              <Select allowClear options={enumOptions(CAR_TYPE)} style={{ width: 120 }} />
            </Form.Item>
          </>
        }
        toolbar={
          canWrite && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => {
                setEditing(null);
                setFormOpen(true);
              }}
              data-testid="tempfee-add"
            >
              新增收费标准
            </Button>
          )
        }
      />
      <TempFeeForm editing={editing} open={formOpen} onClose={close} />
      <VersionsDrawer id={versions} onClose={() => setVersions(null)} />
    </div>
  );
}
