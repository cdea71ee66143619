import { useState } from 'react';
import { Button, Input, InputNumber, Select, Space, Table } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import type { Room, RoomState } from '@wuye/contract';
import { ROOM_STATE } from '@wuye/contract/structure';
import { enumOptions } from '@wuye/contract/kit/resource';
import { useList, type ListFilters } from '../../api/useList';
import { PageCard, save, useCanWrite, useConfirmDelete } from './shared';
import { runExport } from '../../api/exportJob';
import { EnumTag, usePagination, useSmallList } from '../../components/resource';

type Filters = ListFilters<'roomlist'>;
// read as the page draws: the dictionary may have renamed a state (docs/resources.md#dictionary)
const stateOptions = () => enumOptions(ROOM_STATE);

/** roomlist: rooms with filters, paging, export, add/edit/detail pages and delete. */
export default function RoomList() {
  const [params] = useSearchParams();
  const initial: Filters = { bid: Number(params.get('bid')) || undefined, tid: Number(params.get('tid')) || undefined, keyword: '' };
  const list = useList('roomlist', initial);
  const paging = usePagination(list);
  const [draft, setDraft] = useState<Filters>(initial);
  const [exporting, setExporting] = useState(false);
  const buildings = useSmallList('building_small_list', {}).options;
  const units = useSmallList('unit_small_list', draft.bid ? { bid: draft.bid as number } : null).options;
  const categories = useSmallList('roomcate_small_list', {}).options;
  const canWrite = useCanWrite();
  const confirmDelete = useConfirmDelete();
  const navigate = useNavigate();

  /** a dropdown change filters at once; text fields wait for Enter or the search button */
  const apply = (patch: Partial<Filters>, now = true) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    if (now) list.setFilters(next);
  };
  const exportRooms = async () => {
    setExporting(true);
    try {
      await runExport('roomexport', { ...list.filters, sort: list.filters.sort ?? 'asc' });
    } finally {
      setExporting(false);
    }
  };

  return (
    <PageCard
      title="房屋管理"
      extra={
        <Space>
          <Button onClick={() => void exportRooms()} loading={exporting} data-testid="room-export">
            导出
          </Button>
          {canWrite && <Button onClick={() => void navigate('/buildingimport')}>批量导入</Button>}
          {canWrite && (
            <Button type="primary" onClick={() => void navigate('/addroom')} data-testid="room-add">
              新增房屋
            </Button>
          )}
        </Space>
      }
    >
      <Space style={{ marginBottom: 16 }} wrap>
        <Select
          placeholder="全部楼栋"
          allowClear
          style={{ width: 140 }}
          options={buildings}
          value={draft.bid as number | undefined}
          onChange={(v?: number) => apply({ bid: v, tid: undefined })}
          data-testid="room-filter-bid"
        />
        <Select
          placeholder="全部单元"
          allowClear
          style={{ width: 120 }}
          options={units}
          value={draft.tid as number | undefined}
          onChange={(v?: number) => apply({ tid: v })}
          disabled={!draft.bid}
          data-testid="room-filter-tid"
        />
        <Select
          placeholder="房屋类型"
          allowClear
          style={{ width: 120 }}
          options={categories}
          value={draft.category_id as number | undefined}
          onChange={(v?: number) => apply({ category_id: v })}
          data-testid="room-filter-category"
        />
        <Select
          placeholder="房屋状态"
          allowClear
          style={{ width: 120 }}
          options={stateOptions()}
          value={draft.state as RoomState | undefined}
          onChange={(v?: RoomState) => apply({ state: v })}
          data-testid="room-filter-state"
        />
        <InputNumber
          placeholder="楼层"
          min={-10}
          max={200}
          precision={0}
          style={{ width: 90 }}
          value={draft.floor as number | undefined}
          onChange={(v) => apply({ floor: v ?? undefined }, false)}
          onPressEnter={() => list.setFilters(draft)}
          data-testid="room-filter-floor"
        />
        <Input
          placeholder="房号"
          allowClear
          style={{ width: 140 }}
          value={draft.keyword}
          onChange={(e) => apply({ keyword: e.target.value }, false)}
          onPressEnter={() => list.setFilters(draft)}
          data-testid="room-filter-keyword"
        />
        <Button type="primary" onClick={() => list.setFilters(draft)} data-testid="room-search">
          搜索
        </Button>
      </Space>
      <Table<Room>
        rowKey="id"
        loading={list.loading}
        dataSource={list.items}
        pagination={paging}
        data-testid="room-table"
        scroll={{ x: 1100 }}
        onChange={(_p, _f, sorter) => {
          const order = Array.isArray(sorter) ? undefined : sorter.order;
          if (order) list.setFilters({ ...list.filters, sort: order === 'descend' ? 'desc' : 'asc' });
        }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 80, sorter: true, sortDirections: ['ascend', 'descend', 'ascend'] },
          { title: '楼栋', dataIndex: 'building_title', width: 100 },
          { title: '单元', dataIndex: 'unit_title', width: 90 },
          { title: '房号', dataIndex: 'title', width: 90 },
          { title: '楼层', dataIndex: 'floor', width: 70 },
          { title: '建筑面积(㎡)', dataIndex: 'built_area', width: 120 },
          { title: '套内面积(㎡)', dataIndex: 'indoor_area', width: 120 },
          { title: '房屋类型', dataIndex: 'category_title', width: 100 },
          { title: '状态', dataIndex: 'state', width: 100, render: (s: RoomState) => <EnumTag enum={ROOM_STATE} value={s} /> },
          { title: '备注', dataIndex: 'remark', ellipsis: true },
          {
            title: '操作',
            key: 'op',
            width: 190,
            fixed: 'right',
            render: (_: unknown, row: Room) => (
              <Space>
                <Button size="small" onClick={() => void navigate(`/roominfo?id=${row.id}`)}>
                  详情
                </Button>
                {canWrite && (
                  <Button size="small" onClick={() => void navigate(`/editroom?id=${row.id}`)}>
                    编辑
                  </Button>
                )}
                {canWrite && (
                  <Button
                    size="small"
                    danger
                    data-testid={`room-del-${row.id}`}
                    onClick={() =>
                      confirmDelete(async () => {
                        await save('roomdel', { id: row.id });
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
        ]}
      />
    </PageCard>
  );
}
