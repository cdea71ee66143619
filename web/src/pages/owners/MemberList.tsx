import { useCallback, useState } from 'react';
import { App, Button, DatePicker, Form, Input, Modal, Select, Space, Tag } from 'antd';
import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { RELATION_CH, RELATIONS, type MemberItem, type MemberRoom, type MethodInput } from '@wuye/contract';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import { useSystem } from '../../stores/system';
import TablePage from '../../components/TablePage';
import MemberForm from './MemberForm';
import MemberImport from './MemberImport';
import OwnerDrawer from './OwnerDrawer';
import type { HouseRef } from './shared';
import { runExport } from '../../api/exportJob';
import { useSmallList } from '../../components/resource';
import { moneyColumn } from '../../components/Money';

type Filters = Omit<MethodInput<'memberlist'>, 'page' | 'limit' | 'sort'>;
const YN_OPTIONS = [
  { value: 'Y', label: '已绑定' },
  { value: 'N', label: '未绑定' },
];

/** /basismembers/index: owners, family members and tenants of the community. */
export default function MemberList() {
  const list = useList('memberlist', {});
  const buildings = useSmallList('building_small_list', {}).options;
  const [editing, setEditing] = useState<MemberItem | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [moving, setMoving] = useState<{ member: MemberItem; room: MemberRoom } | null>(null);
  const [moveDate, setMoveDate] = useState<Dayjs>(dayjs());
  const [house, setHouse] = useState<HouseRef | null>(null);
  const { message } = App.useApp();
  const rid = useSystem((st) => st.info?.rid) ?? 0;
  const { reload } = list;

  const clean = (f: Filters) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== '')) as Filters;
  const moveOut = async () => {
    if (!moving) return;
    try {
      const res = await request('membermoveout', { id: moving.room.id, date: moveDate.format('YYYY-MM-DD') });
      noticeSuccess(res.return_msg);
      setMoving(null);
      reload();
    } catch {
      /* shown by the client */
    }
  };
  const onImported = useCallback(() => reload(), [reload]);

  return (
    <>
      <TablePage<MemberItem, Filters>
        title="业主管理"
        testId="member-list"
        list={list}
        rowKey="id"
        filters={
          <>
            <Form.Item name="name">
              <Input placeholder="姓名" allowClear data-testid="member-filter-name" />
            </Form.Item>
            <Form.Item name="mobile">
              <Input placeholder="手机号" allowClear maxLength={11} data-testid="member-filter-mobile" />
            </Form.Item>
            <Form.Item name="bid">
              <Select placeholder="楼栋" allowClear options={buildings} style={{ width: 120 }} />
            </Form.Item>
            <Form.Item name="relation">
              <Select
                placeholder="身份"
                allowClear
                style={{ width: 100 }}
                options={RELATIONS.map((r) => ({ value: r, label: RELATION_CH[r] }))}
              />
            </Form.Item>
            <Form.Item name="wx_isbind">
              <Select placeholder="微信绑定" allowClear style={{ width: 110 }} options={YN_OPTIONS} />
            </Form.Item>
            <Form.Item name="app_isbind">
              <Select placeholder="APP绑定" allowClear style={{ width: 110 }} options={YN_OPTIONS} />
            </Form.Item>
            <Form.Item name="living">
              <Select
                placeholder="在住"
                allowClear
                style={{ width: 100 }}
                options={[
                  { value: 'Y', label: '在住' },
                  { value: 'N', label: '已迁出' },
                ]}
              />
            </Form.Item>
          </>
        }
        onSearch={(f) => list.setFilters(clean(f))}
        onExport={(f) => runExport('memberexport', clean(f))}
        toolbar={
          <>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => {
                setEditing(null);
                setFormOpen(true);
              }}
              data-testid="member-add"
            >
              新增住户
            </Button>
            <Button icon={<ImportOutlined />} onClick={() => setImportOpen(true)} data-testid="member-import-open">
              导入
            </Button>
          </>
        }
        columns={[
          { title: '编号', dataIndex: 'id', width: 80 },
          { title: '姓名', dataIndex: 'realname' },
          { title: '手机号', dataIndex: 'mobile' },
          { title: '性别', dataIndex: 'gender_ch', width: 60 },
          {
            title: '房屋（身份）',
            dataIndex: 'rooms',
            render: (rooms: MemberRoom[], m) => (
              <Space direction="vertical" size={2}>
                {rooms.map((r) => (
                  <Space key={r.id} size={4}>
                    <Tag color={r.status === 'Y' ? 'blue' : 'default'}>
                      {r.address}（{r.relation_ch}
                      {r.status === 'N' ? `，${r.move_out_date} 迁出` : ''}）
                    </Tag>
                    {r.status === 'Y' && (
                      <>
                        <Button
                          type="link"
                          size="small"
                          onClick={() => setHouse({ rid, bid: r.bid, tid: r.tid, hid: r.hid })}
                          data-testid="member-open-drawer"
                        >
                          详情
                        </Button>
                        <Button
                          type="link"
                          size="small"
                          danger
                          onClick={() => {
                            setMoveDate(dayjs());
                            setMoving({ member: m, room: r });
                          }}
                          data-testid="member-moveout"
                        >
                          迁出
                        </Button>
                      </>
                    )}
                  </Space>
                ))}
              </Space>
            ),
          },
          {
            title: '微信',
            dataIndex: 'wx_isbind',
            render: (v: string) => <Tag color={v === 'Y' ? 'success' : 'default'}>{v === 'Y' ? '已绑定' : '未绑定'}</Tag>,
          },
          {
            title: 'APP',
            dataIndex: 'app_isbind',
            render: (v: string) => <Tag color={v === 'Y' ? 'success' : 'default'}>{v === 'Y' ? '已绑定' : '未绑定'}</Tag>,
          },
          moneyColumn('余额', 'balance'),
          { title: '积分', dataIndex: 'bonus', align: 'right' },
          { title: '登记时间', dataIndex: 'create_time' },
          {
            title: '操作',
            fixed: 'right',
            render: (_, m) => (
              <Button
                type="link"
                size="small"
                onClick={() => {
                  setEditing(m);
                  setFormOpen(true);
                }}
                data-testid="member-edit"
              >
                编辑
              </Button>
            ),
          },
        ]}
      />
      <MemberForm member={editing} open={formOpen} onClose={() => setFormOpen(false)} onSaved={reload} />
      <MemberImport open={importOpen} onClose={() => setImportOpen(false)} onDone={onImported} />
      <Modal
        title="住户迁出"
        open={!!moving}
        onCancel={() => {
          setMoving(null);
          void message.info('已取消迁出');
        }}
        onOk={() => void moveOut()}
        modalRender={(node) => <div data-testid="member-moveout-dialog">{node}</div>}
      >
        {moving && (
          <Space direction="vertical">
            <span>
              {moving.member.realname} 从 {moving.room.address} 迁出，迁出后保留为历史记录。
            </span>
            <DatePicker value={moveDate} onChange={(d) => d && setMoveDate(d)} inputReadOnly allowClear={false} />
          </Space>
        )}
      </Modal>
      <OwnerDrawer house={house} onClose={() => setHouse(null)} />
    </>
  );
}
