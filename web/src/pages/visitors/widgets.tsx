import { useEffect, useState } from 'react';
import { DatePicker, Form, Select } from 'antd';
import dayjs from 'dayjs';
import { enumKeys, VISITOR_STATUS } from '@wuye/contract';
import { call } from '../../api/client';
import { PhotosInput } from '../../components/PhotosInput';
import { useSmallList } from '../../components/resource';

const WIRE = 'YYYY-MM-DD HH:mm:ss';

/** A wire time (YYYY-MM-DD HH:mm:ss), picked or typed (as the booth console's event time). */
export function DateTimeInput({
  value,
  onChange,
  'data-testid': testId,
  allowClear = false,
}: {
  value?: string;
  onChange?: (v: string) => void;
  'data-testid'?: string;
  allowClear?: boolean;
}) {
  return (
    <DatePicker
      showTime
      format={WIRE}
      allowClear={allowClear}
      style={{ width: '100%' }}
      value={value ? dayjs(value, WIRE) : null}
      onChange={(d) => onChange?.(d ? d.format(WIRE) : '')}
      data-testid={testId}
    />
  );
}

/** The reason type: the dictionary's 来访事由 items (/setup/dict_list). */
export function ReasonSelect({
  value,
  onChange,
  'data-testid': testId,
}: {
  value?: string;
  onChange?: (v: string) => void;
  'data-testid'?: string;
}) {
  const [options, setOptions] = useState<Array<{ value: string; label: string }>>([]);
  useEffect(() => {
    let alive = true;
    call('dict_small_list', { type: 'visitor_reason' })
      .then((d) => {
        if (alive) setOptions(d.items.map((i) => ({ value: i.value, label: i.label })));
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, []);
  return <Select value={value || undefined} onChange={onChange} options={options} placeholder="请选择来访事由" data-testid={testId} />;
}

/** The person visited: the people living now in the room chosen in the form's 访问房屋. */
export function OwnerSelect({
  value,
  onChange,
  'data-testid': testId,
}: {
  value?: number;
  onChange?: (v: number) => void;
  'data-testid'?: string;
}) {
  const form = Form.useFormInstance();
  const hid = Form.useWatch('hid', form) as number | undefined;
  const { options, loading } = useSmallList('visitor_member_small_list', hid ? { hid } : null);
  return (
    <Select
      value={value}
      onChange={onChange}
      options={options}
      loading={loading}
      disabled={!hid}
      placeholder={hid ? '请选择被访业主' : '请先选择访问房屋'}
      data-testid={testId}
    />
  );
}

/** One photo of the visitor (uploaded at once; the value is its address, '' none). */
export function PhotoInput({
  value,
  onChange,
  'data-testid': testId,
}: {
  value?: string;
  onChange?: (v: string) => void;
  'data-testid'?: string;
}) {
  return <PhotosInput value={value ? [value] : []} onChange={(urls) => onChange?.(urls[0] ?? '')} max={1} testId={testId} />;
}

/** The status filter: 待审核 travels as `pending` (an empty filter means none). */
export function StatusFilter({
  value,
  onChange,
  'data-testid': testId,
}: {
  value?: string;
  onChange?: (v: string) => void;
  'data-testid'?: string;
}) {
  const options = enumKeys(VISITOR_STATUS).map((k) => ({ value: k === '' ? 'pending' : k, label: VISITOR_STATUS[k].text }));
  return (
    <Select
      value={value || undefined}
      onChange={(v: string | undefined) => onChange?.(v ?? '')}
      allowClear
      options={options}
      placeholder="全部"
      style={{ width: 120 }}
      data-testid={testId}
    />
  );
}
