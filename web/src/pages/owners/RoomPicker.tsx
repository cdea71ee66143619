import { useMemo, useState } from 'react';
import { Cascader } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { smallListQuery, useSmallList } from '../../components/resource';

interface Node {
  value: number;
  label: string;
  isLeaf?: boolean;
  children?: Node[];
}

/** Building > unit > room, loaded level by level (from the small lists' one cache); the value is [bid, tid, hid]. */
export default function RoomPicker(props: { value?: number[]; onChange?: (v: number[]) => void; testId?: string }) {
  const queryClient = useQueryClient();
  const buildings = useSmallList('building_small_list', {}).items;
  // the levels below a building, by `building` / `building-unit` path
  const [loaded, setLoaded] = useState<Record<string, Node[]>>({});
  const options = useMemo(
    () =>
      buildings.map<Node>((b) => ({
        value: b.id,
        label: b.title,
        isLeaf: false,
        children: loaded[b.id]?.map((u) => ({ ...u, children: loaded[`${b.id}-${u.value}`] })),
      })),
    [buildings, loaded],
  );
  const loadData = async (path: Node[]) => {
    const key = path.map((n) => n.value).join('-');
    const target = path[path.length - 1]!;
    let children: Node[] = [];
    try {
      children =
        path.length === 1
          ? (await queryClient.fetchQuery(smallListQuery('unit_small_list', { bid: target.value }))).items.map((u) => ({
              value: u.id,
              label: u.title,
              isLeaf: false,
            }))
          : (await queryClient.fetchQuery(smallListQuery('room_small_list', { tid: target.value }))).items.map((r) => ({
              value: r.id,
              label: r.title,
              isLeaf: true,
            }));
    } catch {
      // the client has shown the error; opening the node again loads it again
    }
    setLoaded((l) => ({ ...l, [key]: children }));
  };
  return (
    <Cascader<Node>
      options={options}
      loadData={(p) => void loadData(p)}
      value={props.value}
      placeholder="楼栋 / 单元 / 房号"
      style={{ width: 240 }}
      onChange={(v) => props.onChange?.((v ?? []) as number[])}
      changeOnSelect={false}
      data-testid={props.testId}
    />
  );
}
