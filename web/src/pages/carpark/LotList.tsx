import { useEffect, useMemo, useState } from 'react';
import { Button, Drawer, Input, Space, Table, Tabs, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { booth, lane, lot, parkingList, type GateTextItem, type LotItem } from '@wuye/contract';
import { call } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { ResourcePage, useCanWrite } from '../../components/resource';

/** The lot's words at the gate per event: the default until changed, restored by emptying it. */
function GateTexts({ lotId }: { lotId: number }) {
  const canWrite = useCanWrite(lot.def.roles.write);
  const queryClient = useQueryClient();
  const key = ['gatetextlist', lotId];
  const texts = useQuery({ queryKey: key, queryFn: () => call('gatetextlist', { lot_id: lotId }) });
  const [draft, setDraft] = useState<Record<string, string>>({});
  useEffect(() => setDraft({}), [texts.data]);
  const save = async (row: GateTextItem) => {
    try {
      const answer = await call('gatetextedit', { lot_id: lotId, event: row.event, content: draft[row.event] ?? row.content });
      queryClient.setQueryData(key, answer);
      noticeSuccess('保存成功');
    } catch {
      /* shown by the client */
    }
  };
  return (
    <Table<GateTextItem>
      rowKey="event"
      size="small"
      loading={texts.isFetching}
      dataSource={texts.data?.items ?? []}
      pagination={false}
      data-testid="gatetext-table"
      columns={[
        { key: 'event', title: '事件', dataIndex: 'event_ch', width: 130 },
        {
          key: 'content',
          title: '显示与播报文字（{plate} 车牌、{days} 天数、{fee} 金额）',
          render: (_, row) =>
            canWrite ? (
              <Input
                value={draft[row.event] ?? row.content}
                maxLength={100}
                onChange={(e) => setDraft((d) => ({ ...d, [row.event]: e.target.value }))}
                data-testid={`gatetext-${row.event}`}
              />
            ) : (
              row.content
            ),
        },
        {
          key: 'is_default',
          title: '',
          width: 70,
          render: (_, row) => (row.is_default ? <Tag>默认</Tag> : <Tag color="blue">已修改</Tag>),
        },
        ...(canWrite
          ? [
              {
                key: 'save',
                title: '操作',
                width: 120,
                render: (_: unknown, row: GateTextItem) => (
                  <Space size={0}>
                    <Button size="small" type="link" onClick={() => void save(row)} data-testid={`gatetext-save-${row.event}`}>
                      保存
                    </Button>
                    {!row.is_default && (
                      <Button
                        size="small"
                        type="link"
                        onClick={() => {
                          setDraft((d) => ({ ...d, [row.event]: '' }));
                          void call('gatetextedit', { lot_id: lotId, event: row.event, content: '' }).then((a) => {
                            queryClient.setQueryData(key, a);
                            noticeSuccess('已恢复默认');
                          });
                        }}
                      >
                        恢复默认
                      </Button>
                    )}
                  </Space>
                ),
              },
            ]
          : []),
      ]}
    />
  );
}

/** A lot's booths, lanes, gate texts and lists, each narrowed to the lot. */
function LotDetail({ row, onClose }: { row: LotItem; onClose: () => void }) {
  const only = useMemo(() => ({ permanent: { lot_id: row.id }, syncUrl: false }), [row.id]);
  const starting = useMemo(() => ({ defaults: () => ({ lot_id: row.id }) }), [row.id]);
  return (
    <Drawer open title={`${row.code} ${row.title}`} size="large" onClose={onClose} destroyOnHidden data-testid="lot-detail">
      <Tabs
        items={[
          {
            key: 'booths',
            label: '岗亭',
            children: <ResourcePage resource={booth} title="岗亭" idColumn={false} listOptions={only} formOptions={starting} />,
          },
          { key: 'lanes', label: '车道', children: <ResourcePage resource={lane} title="车道" idColumn={false} listOptions={only} /> },
          { key: 'texts', label: '闸口文字', children: <GateTexts lotId={row.id} /> },
          {
            key: 'lists',
            label: '黑白名单',
            children: <ResourcePage resource={parkingList} title="黑白名单" idColumn={false} listOptions={only} formOptions={starting} />,
          },
        ]}
      />
    </Drawer>
  );
}

/**
 * /carpark/carparklist (停车场管理; docs/product.md#carpark): the lots with their settings and
 * monthly prices; a lot's detail shows its booths, their lanes (online state from the last
 * heartbeat), the texts at its gates and its black and white lists.
 */
export default function LotList() {
  const [open, setOpen] = useState<LotItem | null>(null);
  return (
    <>
      <ResourcePage<LotItem>
        resource={lot}
        title="停车场管理"
        rowActions={(row) => (
          <Button size="small" type="link" onClick={() => setOpen(row)} data-testid={`carpark-detail-${row.id}`}>
            岗亭车道
          </Button>
        )}
      />
      {open && <LotDetail row={open} onClose={() => setOpen(null)} />}
    </>
  );
}
