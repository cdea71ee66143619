import { Select, Space } from 'antd';
import { useSmallList } from '../../components/resource';

export interface RoomPick {
  bid?: number;
  tid?: number;
  hid?: number;
}

/** Building / unit / room selects; picking a level clears the levels below it. */
export function RoomSelects({
  value,
  onChange,
  withRoom = true,
  testId = 'room-selects',
}: {
  value: RoomPick;
  onChange: (v: RoomPick) => void;
  withRoom?: boolean;
  testId?: string;
}) {
  const buildings = useSmallList('building_small_list', {}).items;
  const units = useSmallList('unit_small_list', value.bid ? { bid: value.bid } : null).items;
  const rooms = useSmallList('room_small_list', withRoom && value.tid ? { tid: value.tid } : null).items;
  return (
    <Space wrap data-testid={testId} style={{ maxWidth: '100%' }}>
      <Select
        allowClear
        placeholder="楼栋"
        style={{ width: 120 }}
        value={value.bid}
        data-testid={`${testId}-building`}
        options={buildings.map((b) => ({ value: b.id, label: b.title }))}
        onChange={(bid?: number) => onChange({ bid })}
      />
      <Select
        allowClear
        placeholder="单元"
        style={{ width: 110 }}
        value={value.tid}
        disabled={!value.bid}
        data-testid={`${testId}-unit`}
        options={units.map((u) => ({ value: u.id, label: u.title }))}
        onChange={(tid?: number) => onChange({ bid: value.bid, tid })}
      />
      {withRoom && (
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder="房号"
          style={{ width: 120 }}
          value={value.hid}
          disabled={!value.tid}
          data-testid={`${testId}-room`}
          options={rooms.map((r) => ({ value: r.id, label: r.title }))}
          onChange={(hid?: number) => onChange({ bid: value.bid, tid: value.tid, hid })}
        />
      )}
    </Space>
  );
}

export const STATUS_COLOR: Record<string, string> = { E: 'warning', Y: 'success', N: 'error' };

export { useActionFixed } from '../../components/TablePage';

export { fileToBase64, saveFile } from '../../utils/files';
