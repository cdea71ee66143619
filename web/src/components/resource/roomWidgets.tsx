import { useMemo, useState, type CSSProperties } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { resourceKey } from './keys';
import RoomCascader from './RoomCascader';

/** A room's place as the cascader shows it: [bid, tid, hid]. */
export type RoomPath = number[];

/** The path of a row's room, from the `bid` and `tid` the row carries beside the room's id. */
export function rowRoomPath(row: Record<string, unknown> | undefined, key: string): RoomPath | undefined {
  const path = [row?.bid, row?.tid, row?.[key]];
  return path.every((n) => typeof n === 'number') ? (path as RoomPath) : undefined;
}

/**
 * A room field (`widget: 'room'`): building > unit > room, the value being the room's id. The
 * row being edited shows its own path (`seed`) until another room is picked.
 */
export function RoomField({
  value,
  onChange,
  seed,
  testId,
  placeholder,
  style,
}: {
  value?: number;
  onChange?: (hid: number | undefined) => void;
  seed?: RoomPath;
  testId?: string;
  placeholder?: string;
  style?: CSSProperties;
}) {
  const [picked, setPicked] = useState<RoomPath>();
  const shown = value === undefined ? undefined : [picked, seed].find((p) => p?.[2] === value);
  return (
    <RoomCascader
      value={shown}
      testId={testId}
      placeholder={placeholder}
      style={style}
      onChange={(path) => {
        setPicked(path);
        onChange?.(path[2]);
      }}
    />
  );
}

/**
 * A person living now in the room chosen in another field (`widget: { membersOf: 'hid' }`): their
 * name and mobile, the value being the member's id. Waits, disabled, until a room is chosen.
 */
export function MembersSelect({
  hid,
  value,
  onChange,
  testId,
  placeholder,
  style,
}: {
  hid: number | undefined;
  value?: number;
  onChange?: (id: number | undefined) => void;
  testId?: string;
  placeholder?: string;
  style?: CSSProperties;
}) {
  const room = typeof hid === 'number' ? hid : undefined;
  const query = useQuery({
    queryKey: [...resourceKey('member'), 'living', room],
    queryFn: () => call('memberlist', { hid: room!, living: 'Y', limit: 50 }, { silent: true }),
    enabled: room !== undefined,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const items = room === undefined ? undefined : query.data?.items;
  const options = useMemo(() => (items ?? []).map((m) => ({ value: m.id, label: `${m.realname} ${m.mobile}` })), [items]);
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      options={options}
      loading={query.isFetching}
      disabled={room === undefined}
      placeholder={placeholder ?? '该房屋的在住住户'}
      value={value}
      onChange={onChange}
      style={style}
      data-testid={testId}
    />
  );
}
