import { useCallback, useEffect, useMemo, useState, type CSSProperties } from 'react';
import { Cascader } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { smallListQuery, useSmallList } from './useSmallList';

interface Node {
  value: number;
  label: string;
  isLeaf?: boolean;
  children?: Node[];
}

/** Building > unit > room, loaded level by level (from the small lists' one cache); the value is [bid, tid, hid]. */
export default function RoomCascader(props: {
  value?: number[];
  onChange?: (v: number[]) => void;
  testId?: string;
  placeholder?: string;
  style?: CSSProperties;
}) {
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
  const load = useCallback(
    async (bid: number, tid?: number) => {
      let children: Node[] = [];
      try {
        children =
          tid === undefined
            ? (await queryClient.fetchQuery(smallListQuery('unit_small_list', { bid }))).items.map((u) => ({
                value: u.id,
                label: u.title,
                isLeaf: false,
              }))
            : (await queryClient.fetchQuery(smallListQuery('room_small_list', { tid }))).items.map((r) => ({
                value: r.id,
                label: r.title,
                isLeaf: true,
              }));
      } catch {
        // the client has shown the error; opening the node again loads it again
      }
      setLoaded((l) => ({ ...l, [tid === undefined ? `${bid}` : `${bid}-${tid}`]: children }));
    },
    [queryClient],
  );
  // a path given from outside (the row being edited) shows its names: its levels are loaded
  const [bid, tid] = props.value ?? [];
  const shownLoaded = bid !== undefined && tid !== undefined && !!loaded[bid] && !!loaded[`${bid}-${tid}`];
  useEffect(() => {
    if (bid === undefined || tid === undefined || shownLoaded) return;
    void load(bid).then(() => load(bid, tid));
  }, [bid, tid, shownLoaded, load]);
  return (
    <Cascader<Node>
      options={options}
      loadData={(p) => void load(p[0]!.value, p[1]?.value)}
      value={props.value}
      placeholder={props.placeholder ?? '楼栋 / 单元 / 房号'}
      style={props.style ?? { width: 240 }}
      onChange={(v) => props.onChange?.((v ?? []) as number[])}
      changeOnSelect={false}
      data-testid={props.testId}
    />
  );
}
