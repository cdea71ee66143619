import { useEffect, useState } from 'react';
import { Cascader } from 'antd';
import { call } from '../../api/client';

interface Node {
  value: number;
  label: string;
  isLeaf?: boolean;
  children?: Node[];
}

/** Building > unit > room, loaded level by level; the value is [bid, tid, hid]. */
export default function RoomPicker(props: { value?: number[]; onChange?: (v: number[]) => void; testId?: string }) {
  const [options, setOptions] = useState<Node[]>([]);
  useEffect(() => {
    call('building_small_list', {})
      .then((r) => setOptions(r.items.map((b) => ({ value: b.id, label: b.title, isLeaf: false }))))
      .catch(() => undefined);
  }, []);
  const loadData = async (path: Node[]) => {
    const target = path[path.length - 1]!;
    try {
      target.children =
        path.length === 1
          ? (await call('unit_small_list', { bid: target.value })).items.map((u) => ({ value: u.id, label: u.title, isLeaf: false }))
          : (await call('room_small_list', { tid: target.value })).items.map((r) => ({ value: r.id, label: r.title, isLeaf: true }));
    } catch {
      // the client has shown the error; the cascader spins until the node has children, and opening
      // the node again loads it again
      target.children = [];
    }
    setOptions((o) => [...o]);
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
