import { useEffect, useMemo, useRef, useState } from 'react';
import { App, Button, DatePicker, Form, Input, Modal, Select } from 'antd';
import type { ButtonProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { LEASE_TYPE, car, space, type CarItem, type LeaseType } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import {
  invalidateResource,
  ResourcePage,
  SmallSelect,
  useCanWrite,
  useResourceForm,
  type ResourceList,
  type Widgets,
} from '../../components/resource';

const LIST = '/carpark/carlist';
/** the list's filters stay at its own address when the page opened at …add or …edit */
const LIST_OPTIONS = { path: LIST };

/** What a bound car shows where its lot, space, lease and main car would be chosen: they move only by release and assign. */
const fixedText = (text: string) =>
  function Fixed(p: { 'data-testid'?: string }) {
    return <Input value={text} disabled data-testid={p['data-testid']} />;
  };

interface AssignForm {
  lot_id?: number;
  space_id?: number;
  lease_type?: LeaseType;
  start_date?: Dayjs;
  end_date?: Dayjs;
}

/** 分配车位: a free space of a lot for a car without one; 月租 needs an end day. */
function AssignDialog({ row, onDone }: { row: CarItem; onDone: () => void }) {
  const [form] = Form.useForm<AssignForm>();
  const lotId = Form.useWatch('lot_id', form);
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const answer = await request('carassign', {
        id: row.id,
        space_id: v.space_id!,
        lease_type: v.lease_type!,
        start_date: v.start_date ? v.start_date.format('YYYY-MM-DD') : '',
        end_date: v.end_date ? v.end_date.format('YYYY-MM-DD') : '',
      });
      noticeSuccess(answer.return_msg);
      onDone();
    } catch {
      /* the client showed why */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`分配车位：${row.carlicense}`}
      onCancel={onDone}
      onOk={() => void submit()}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'car-assign-save' } as ButtonProps}
    >
      <Form<AssignForm>
        form={form}
        layout="vertical"
        initialValues={{
          lot_id: row.lot_id ?? undefined,
          lease_type: (row.lease_type || 'M') as LeaseType,
          start_date: dayjs(),
          end_date: row.end_date ? dayjs(row.end_date) : undefined,
        }}
        onValuesChange={(changed: Partial<AssignForm>) => {
          if ('lot_id' in changed) form.setFieldValue('space_id', undefined);
        }}
      >
        <Form.Item name="lot_id" label="停车场" rules={[{ required: true, message: '请选择停车场' }]}>
          <SmallSelect widget={{ small: 'carpark_small_list' }} values={{}} testId="car-assign-lot" />
        </Form.Item>
        <Form.Item name="space_id" label="车位（空闲）" rules={[{ required: true, message: '请选择车位' }]}>
          <SmallSelect
            widget={{ small: 'parkingspace_small_list', dependsOn: { lot_id: 'lot_id' } }}
            values={{ lot_id: lotId }}
            testId="car-assign-space"
          />
        </Form.Item>
        <Form.Item name="lease_type" label="租售类型" rules={[{ required: true, message: '请选择租售类型' }]}>
          <Select options={enumOptions(LEASE_TYPE)} data-testid="car-assign-lease" />
        </Form.Item>
        <Form.Item name="start_date" label="开始日期">
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="end_date" label="结束日期" extra="月租车必填">
          <DatePicker style={{ width: '100%' }} data-testid="car-assign-end" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /carpark/carlist (车辆管理; docs/product.md#carpark), with /carpark/caradd and /carpark/caredit?id=
 * opening its form: the cars with their lot, space and lease; binding a 月租 car rents its space,
 * 出售 sells it; 释放车位 frees it (refused while member cars share it), 分配车位 binds a released
 * car to a free space; filters by plate, lot, lease, room and state; export.
 */
export default function CarList() {
  const { pathname } = useLocation();
  const route = pathname.endsWith('/caradd') ? 'add' : pathname.endsWith('/caredit') ? 'edit' : null;
  const [params] = useSearchParams();
  const linkId = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(car.def.roles.write);
  const [assigning, setAssigning] = useState<CarItem | null>(null);
  // a car's write moves spaces too: their list and dropdowns refresh with the cars'
  const formOptions = useMemo(() => ({ onSaved: () => void invalidateResource(queryClient, space.def.name) }), [queryClient]);
  const form = useResourceForm<CarItem>(car, formOptions);
  const editing = form.editing && form.editing !== 'new' ? form.editing : null;
  const widgets = useMemo<Widgets>(() => {
    if (!editing?.space_id) return {};
    return {
      lot_id: fixedText(editing.lot_title),
      space_id: fixedText(editing.space_title),
      lease_type: fixedText(editing.lease_type_ch),
      main_car_id: fixedText(editing.main_carlicense || '（无）'),
      ...(editing.lease_type === 'M' ? { end_date: fixedText(editing.end_date) } : {}),
    } as Widgets;
  }, [editing]);

  // the add and edit addresses open the form once; closing it goes back to the list
  const opened = useRef(false);
  useEffect(() => {
    if (!route || opened.current) return;
    opened.current = true;
    if (route === 'add') return form.open();
    if (!linkId) return void navigate(LIST, { replace: true });
    call('carinfo', { id: linkId })
      .then((row) => form.open(row))
      .catch(() => void navigate(LIST, { replace: true }));
  }, [route, linkId, form, navigate]);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (form.editing) wasOpen.current = true;
    else if (wasOpen.current && route) void navigate(LIST, { replace: true });
  }, [form.editing, route, navigate]);

  const release = (row: CarItem, list: ResourceList<CarItem>) =>
    modal.confirm({
      title: '释放车位',
      content: `释放车辆 ${row.carlicense} 的车位 ${row.lot_title} ${row.space_title}？主车释放后车位变为空闲。`,
      okText: '释放',
      cancelText: '取消',
      okButtonProps: { danger: true, 'data-testid': 'car-release-confirm' } as ButtonProps,
      onOk: async () => {
        try {
          const answer = await request('carrelease', { id: row.id });
          noticeSuccess(answer.return_msg);
          list.reload();
          void invalidateResource(queryClient, space.def.name);
        } catch {
          /* the client showed why */
        }
      },
    });

  return (
    <>
      <ResourcePage<CarItem>
        resource={car}
        listOptions={LIST_OPTIONS}
        title="车辆管理"
        form={form}
        widgets={widgets}
        rowActions={(row, list) =>
          canWrite &&
          (row.space_id ? (
            <Button size="small" type="link" danger onClick={() => release(row, list)} data-testid={`car-release-${row.id}`}>
              释放车位
            </Button>
          ) : (
            <Button size="small" type="link" onClick={() => setAssigning(row)} data-testid={`car-assign-${row.id}`}>
              分配车位
            </Button>
          ))
        }
      />
      {assigning && (
        <AssignDialog
          row={assigning}
          onDone={() => {
            setAssigning(null);
            void invalidateResource(queryClient, car.def.name);
            void invalidateResource(queryClient, space.def.name);
          }}
        />
      )}
    </>
  );
}
