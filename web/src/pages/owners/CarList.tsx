import { useEffect, useState } from 'react';
import { Form, Select } from 'antd';
import type { CarItem } from '@wuye/contract';
import { car } from '@wuye/contract/owners/cars';
import { call } from '../../api/client';
import { ResourcePage, type Widgets } from '../../components/resource';
import RoomPicker from './RoomPicker';

/** The room as the Cascader's building > unit > room; the form keeps its id (hid), and the path of the row being edited in `_path`. */
function RoomOfCar({ value, onChange, ...rest }: { value?: number; onChange?: (hid: number | undefined) => void; 'data-testid'?: string }) {
  const form = Form.useFormInstance();
  const seed = form.getFieldValue('_path') as number[] | undefined;
  const [path, setPath] = useState<number[] | undefined>(seed?.[2] === value ? seed : undefined);
  const shown = value === undefined ? undefined : path?.[2] === value ? path : seed?.[2] === value ? seed : undefined;
  return (
    <RoomPicker
      value={shown}
      testId={rest['data-testid']}
      onChange={(p) => {
        setPath(p);
        onChange?.(p[2]);
      }}
    />
  );
}

/** The car's owner: one of the people living in the chosen room. */
function OwnerOfRoom({
  value,
  onChange,
  ...rest
}: {
  value?: number;
  onChange?: (id: number | undefined) => void;
  'data-testid'?: string;
}) {
  const hid = Form.useWatch('hid') as number | undefined;
  const [people, setPeople] = useState<{ value: number; label: string }[]>([]);
  useEffect(() => {
    if (!hid) {
      setPeople([]);
      return;
    }
    call('memberlist', { hid, living: 'Y', limit: 50 }, { silent: true })
      .then((r) => setPeople(r.items.map((m) => ({ value: m.id, label: `${m.realname} ${m.mobile}` }))))
      .catch(() => setPeople([]));
  }, [hid]);
  return (
    <Select
      allowClear
      options={people}
      placeholder="该房屋的在住住户"
      value={value}
      onChange={onChange}
      data-testid={rest['data-testid']}
    />
  );
}

/** The room filter: a room picked in the cascader narrows the list to its cars. */
function RoomFilter({
  value,
  onChange,
  ...rest
}: {
  value?: number;
  onChange?: (hid: number | undefined) => void;
  'data-testid'?: string;
}) {
  const [path, setPath] = useState<number[]>();
  return (
    <RoomPicker
      value={value === undefined ? undefined : path}
      testId={rest['data-testid']}
      onChange={(p) => {
        setPath(p);
        onChange?.(p[2]);
      }}
    />
  );
}

const widgets = { hid: RoomOfCar, member_id: OwnerOfRoom } as unknown as Widgets;
const filterWidgets = { hid: RoomFilter } as unknown as Widgets;
const formOptions = {
  fromRow: (row: Record<string, unknown>) => {
    const c = row as unknown as CarItem;
    return { ...c, member_id: c.member_id ?? undefined, _path: [c.bid, c.tid, c.hid] };
  },
};

/** /basismembers/cars: cars bound to rooms, with plate checks (new-energy plates included). */
export default function CarList() {
  return <ResourcePage resource={car} title="住户车辆" widgets={widgets} filterWidgets={filterWidgets} formOptions={formOptions} />;
}
