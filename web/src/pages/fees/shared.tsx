import { Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';

const small = { staleTime: 60_000, retry: false, refetchOnWindowFocus: false } as const;

export function useCostTypes() {
  return useQuery({ queryKey: ['fees', 'costTypes'], queryFn: () => call('feebill_cate_small_list', {}), ...small }).data?.items ?? [];
}

export function useFeeThings() {
  return useQuery({ queryKey: ['fees', 'things'], queryFn: () => call('feethinglist', {}), ...small }).data?.items ?? [];
}

export function useBuildings() {
  return useQuery({ queryKey: ['structure', 'buildings'], queryFn: () => call('building_small_list', {}), ...small }).data?.items ?? [];
}

export function useUnits(bid: number | undefined) {
  return (
    useQuery({
      queryKey: ['structure', 'units', bid],
      queryFn: () => call('unit_small_list', { bid: bid! }),
      enabled: !!bid,
      ...small,
    }).data?.items ?? []
  );
}

export function useRooms(tid: number | undefined) {
  return (
    useQuery({
      queryKey: ['structure', 'rooms', tid],
      queryFn: () => call('room_small_list', { tid: tid! }),
      enabled: !!tid,
      ...small,
    }).data?.items ?? []
  );
}

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
  const buildings = useBuildings();
  const units = useUnits(value.bid);
  const rooms = useRooms(withRoom ? value.tid : undefined);
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
