import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Form, Input, Modal, Progress, Select, Space, Tag, Typography, Upload } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { BILL_STATUS_CH, type MeterImportResult, type MeterReadingRow } from '@wuye/contract/fees';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import MoneyInput from '../../components/MoneyInput';
import TablePage from '../../components/TablePage';
import { fenOf, yuan } from './money';
import { fileToBase64, RoomSelects, saveFile, STATUS_COLOR, useActionFixed, type RoomPick } from './shared';
import { useJob } from '../../api/useJob';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import { useSmallList } from '../../components/resource';
import { formatMoney, moneyColumn } from '../../components/Money';

interface Filters {
  bid?: number;
  item_id?: number;
  month?: Dayjs | null;
  keyword?: string;
}

interface Editing {
  id?: number;
  place: RoomPick;
  item_id?: number;
  month: Dayjs;
  last_reading: string;
  this_reading: string;
  remark: string;
  address?: string;
}

const blank = (itemId?: number): Editing => ({
  place: {},
  item_id: itemId,
  month: dayjs(),
  last_reading: '',
  this_reading: '',
  remark: '',
});

/** The reading form: room, meter item and period pick the previous reading, which pre-fills 上次读数. */
function ReadingModal({
  value,
  items,
  onClose,
}: {
  value: Editing | null;
  items: Array<{ id: number; title: string }>;
  onClose: (saved: boolean) => void;
}) {
  const [v, setV] = useState<Editing>(value ?? blank());
  const [lastFrom, setLastFrom] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setV(value ?? blank());
    setLastFrom('');
  }, [value]);
  const isNew = !v.id;
  const period = v.month.format('YYYY-MM');
  useEffect(() => {
    if (!value || !isNew || !v.place.hid || !v.item_id) return undefined;
    let stale = false;
    call('meterreadingprev', { hid: v.place.hid, item_id: v.item_id, period }, { silent: true })
      .then((p) => {
        if (stale) return;
        setV((old) => ({ ...old, last_reading: p.last_reading }));
        setLastFrom(p.last_period ? `${p.last_period} 的读数` : '首次抄表');
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [value, isNew, v.place.hid, v.item_id, period]);

  const quantity = v.this_reading === '' ? null : fenOf(v.this_reading) - fenOf(v.last_reading);
  const problem = !v.place.hid
    ? '请选择房屋'
    : !v.item_id
      ? '请选择收费项目'
      : v.this_reading === ''
        ? '请填写本次读数'
        : quantity !== null && quantity < 0n
          ? '本次读数不能小于上次读数'
          : '';

  const save = async () => {
    if (problem) return;
    setSaving(true);
    try {
      const values = { last_reading: v.last_reading, this_reading: v.this_reading, remark: v.remark };
      const answer = isNew
        ? await request('meterreadingadd', { hid: v.place.hid!, item_id: v.item_id!, period, ...values })
        : await request('meterreadingedit', { id: v.id!, ...values });
      noticeSuccess(answer.return_msg ?? '保存成功');
      onClose(true);
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={!!value}
      title={isNew ? '录入读数' : '修改读数'}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      confirmLoading={saving}
      okButtonProps={{ disabled: !!problem, 'data-testid': 'meter-save' } as never}
      destroyOnHidden
      modalRender={(node) => <div data-testid="meter-modal">{node}</div>}
    >
      <Form layout="horizontal" labelCol={{ flex: '90px' }}>
        <Form.Item label="房屋" required>
          {isNew ? (
            <RoomSelects value={v.place} onChange={(place) => setV({ ...v, place })} testId="meter-room" />
          ) : (
            <span>{v.address}</span>
          )}
        </Form.Item>
        <Form.Item label="收费项目" required>
          <Select
            style={{ width: 200 }}
            value={v.item_id}
            disabled={!isNew}
            onChange={(item_id: number) => setV({ ...v, item_id })}
            options={items.map((i) => ({ value: i.id, label: i.title }))}
            data-testid="meter-item"
          />
        </Form.Item>
        <Form.Item label="账期" required>
          <DatePicker
            picker="month"
            inputReadOnly
            allowClear={false}
            value={v.month}
            disabled={!isNew}
            onChange={(m: Dayjs | null) => m && setV({ ...v, month: m })}
            data-testid="meter-period"
          />
        </Form.Item>
        <Form.Item label="上次读数" extra={isNew && lastFrom ? `已按${lastFrom}预填，换表时可修改` : undefined}>
          <MoneyInput
            value={v.last_reading}
            onChange={(last_reading) => setV({ ...v, last_reading })}
            placeholder="0.00"
            style={{ width: 160 }}
            data-testid="meter-last"
          />
        </Form.Item>
        <Form.Item label="本次读数" required>
          <MoneyInput
            value={v.this_reading}
            onChange={(this_reading) => setV({ ...v, this_reading })}
            style={{ width: 160 }}
            data-testid="meter-this"
          />
        </Form.Item>
        <Form.Item label="用量">
          <Typography.Text strong data-testid="meter-quantity">
            {quantity === null ? '-' : yuan(quantity)}
          </Typography.Text>
        </Form.Item>
        <Form.Item label="备注">
          <Input value={v.remark} maxLength={100} onChange={(e) => setV({ ...v, remark: e.target.value })} />
        </Form.Item>
      </Form>
      {problem && v.this_reading !== '' && <Alert type="warning" showIcon title={problem} />}
    </Modal>
  );
}

/** Meter readings (/fees/meterreading, 抄表录入): list, enter and edit readings, Excel template and import. */
export default function MeterReading() {
  const things = useSmallList('feethinglist', {}).items;
  const meterItems = useMemo(() => things.filter((i) => i.pricing === 'meter'), [things]);
  const buildings = useSmallList('building_small_list', {}).items;
  // newest periods first, a building's rooms in order within a period
  const list = useList('meterreadinglist', { sort: 'desc' });
  const confirmDelete = useConfirmDelete();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [jobId, setJobId] = useState<number>();
  const job = useJob(jobId);
  const result = job?.status === 'done' ? (job.result as MeterImportResult) : undefined;
  useEffect(() => {
    if (job?.status === 'done') list.reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [job?.status]);

  const upload = async (file: File) => {
    try {
      const answer = await request('meterreadingimport', { filename: file.name, file_base64: await fileToBase64(file) });
      noticeSuccess(answer.return_msg ?? '已开始导入');
      setJobId(answer.data.job_id);
    } catch {
      // toasted by the client
    }
    return false;
  };

  const template = async () => {
    const { bid, item_id, period } = list.filters;
    try {
      saveFile(await call('meterreadingtemplate', { bid, item_id, period }));
    } catch {
      // toasted by the client
    }
  };

  const actionFixed = useActionFixed();
  const columns: TableColumnsType<MeterReadingRow> = [
    { title: '房屋', dataIndex: 'address', width: 150 },
    { title: '收费项目', dataIndex: 'item_title', width: 110 },
    { title: '账期', dataIndex: 'period', width: 90 },
    { title: '上次读数', dataIndex: 'last_reading', width: 100, align: 'right' },
    { title: '本次读数', dataIndex: 'this_reading', width: 100, align: 'right' },
    { title: '用量', dataIndex: 'quantity', width: 90, align: 'right', render: (q: string) => <b>{q}</b> },
    moneyColumn('单价', 'unit_price', { width: 100 }),
    moneyColumn('金额', 'amount', { width: 110 }),
    {
      title: '账单',
      dataIndex: 'bill_status',
      width: 110,
      render: (s: MeterReadingRow['bill_status'], m) =>
        s ? (
          <Tag color={STATUS_COLOR[s]}>
            {BILL_STATUS_CH[s]} {formatMoney(m.bill_fee)}
          </Tag>
        ) : (
          <Tag>未出账</Tag>
        ),
    },
    { title: '备注', dataIndex: 'remark', width: 120 },
    {
      title: '来源',
      dataIndex: 'source',
      width: 80,
      render: (v: MeterReadingRow['source']) => (v === 'auto' ? <Tag color="success">远传自动</Tag> : <Tag>人工</Tag>),
    },
    { title: '抄表人', dataIndex: 'create_user', width: 90 },
    { title: '录入时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 120,
      fixed: actionFixed,
      render: (_, m) =>
        m.bill_status !== 'Y' && (
          <Space size={4}>
            <Button
              size="small"
              type="link"
              data-testid={`meter-edit-${m.id}`}
              onClick={() =>
                setEditing({
                  id: m.id,
                  place: { bid: m.bid, tid: m.tid, hid: m.hid },
                  item_id: m.item_id,
                  month: dayjs(`${m.period}-01`),
                  address: m.address,
                  last_reading: m.last_reading,
                  this_reading: m.this_reading,
                  remark: m.remark,
                })
              }
            >
              修改
            </Button>
            {!m.bill_status && (
              <Button
                size="small"
                type="link"
                danger
                data-testid={`meter-del-${m.id}`}
                onClick={() =>
                  confirmDelete(async () => {
                    const answer = await request('meterreadingdel', { id: m.id });
                    noticeSuccess(answer.return_msg ?? '删除成功');
                    list.reload();
                  })
                }
              >
                删除
              </Button>
            )}
          </Space>
        ),
    },
  ];

  return (
    <>
      <TablePage<MeterReadingRow, Filters>
        testId="meterreading-page"
        list={list}
        columns={columns}
        rowKey="id"
        title="抄表录入"
        onSearch={(f) =>
          list.setFilters({ sort: 'desc', bid: f.bid, item_id: f.item_id, period: f.month?.format('YYYY-MM') ?? '', keyword: f.keyword })
        }
        filters={
          <>
            <Form.Item name="bid" label="楼栋">
              <Select
                allowClear
                style={{ width: 120 }}
                options={buildings.map((b) => ({ value: b.id, label: b.title }))}
                data-testid="meter-filter-building"
              />
            </Form.Item>
            <Form.Item name="item_id" label="收费项目">
              <Select
                allowClear
                style={{ width: 140 }}
                options={meterItems.map((i) => ({ value: i.id, label: i.title }))}
                data-testid="meter-filter-item"
              />
            </Form.Item>
            <Form.Item name="month" label="账期">
              <DatePicker picker="month" inputReadOnly style={{ width: 120 }} />
            </Form.Item>
            <Form.Item name="keyword" label="房号">
              <Input allowClear style={{ width: 140 }} placeholder="如 1号楼1单元101" />
            </Form.Item>
          </>
        }
        toolbar={
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(blank(meterItems[0]?.id))} data-testid="meter-add">
              录入读数
            </Button>
            <Button
              icon={<DownloadOutlined />}
              onClick={() => void template()}
              data-testid="meter-template"
              title="先选择收费项目和账期（可选楼栋）再搜索，模板会列出房屋并预填上次读数"
            >
              下载模板
            </Button>
            <Upload accept=".xlsx" showUploadList={false} beforeUpload={(f) => upload(f)}>
              <Button icon={<UploadOutlined />} data-testid="meter-upload">
                导入 Excel
              </Button>
            </Upload>
          </>
        }
      />
      {job && (
        <Space orientation="vertical" style={{ width: '100%', marginTop: 12 }} data-testid="meter-import-result">
          <Progress percent={job.percent} status={job.status === 'failed' || (result?.errors.length ?? 0) > 0 ? 'exception' : undefined} />
          {job.status === 'failed' && <Alert type="error" showIcon title={job.error || '导入失败'} />}
          {result && result.errors.length === 0 && (
            <Alert type="success" showIcon title={`导入完成：新增 ${result.imported} 条，更新 ${result.updated} 条`} />
          )}
          {result && result.errors.length > 0 && (
            <Alert
              type="error"
              showIcon
              title={`有 ${result.errors.length} 行错误，整个文件未导入`}
              action={
                <Button
                  size="small"
                  onClick={() =>
                    void call('meterreadingerrors', { job_id: job.id })
                      .then(saveFile)
                      .catch(() => undefined)
                  }
                >
                  下载错误报告
                </Button>
              }
            />
          )}
        </Space>
      )}
      <ReadingModal
        value={editing}
        items={meterItems}
        onClose={(saved) => {
          setEditing(null);
          if (saved) list.reload();
        }}
      />
    </>
  );
}
