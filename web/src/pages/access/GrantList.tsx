import { useEffect, useState } from 'react';
import { Button, Form, Input, Select, Space } from 'antd';
import type { TableColumnsType } from 'antd';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { PERSON_KIND, type GrantItem } from '@wuye/contract';
import { call } from '../../api/client';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { SmallSelect, useCanWrite } from '../../components/resource';
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import { GrantForm, GrantInfo, GrantStatus, RevokeButton, statusFilterOptions } from './grantParts';

interface Filters {
  keyword?: string;
  status?: string;
  person_kind?: string;
  region_id?: number;
  revoked?: string;
}
const given = (v: unknown) => (v === '' || v === null ? undefined : v);

export function grantColumns(extra: (row: GrantItem) => React.ReactNode): TableColumnsType<GrantItem> {
  return [
    { key: 'id', title: 'ID', dataIndex: 'id', width: 70 },
    { key: 'person_name', title: '人员', dataIndex: 'person_name', width: 100, fixed: 'left' },
    { key: 'person_kind', title: '类型', dataIndex: 'person_kind_ch', width: 70 },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 180 },
    { key: 'region_titles', title: '门禁区域', dataIndex: 'region_titles', width: 180, ellipsis: true },
    { key: 'validity', title: '有效期', width: 200, render: (_, r) => `${r.door_start_time} 至 ${r.door_end_time}` },
    {
      key: 'credential',
      title: '凭证',
      width: 120,
      render: (_, r) => [r.face_image && '人脸', r.card_no && `卡 ${r.card_no}`, r.qr_code && '二维码'].filter(Boolean).join('、'),
    },
    { key: 'status', title: '状态', width: 110, render: (_, r) => <GrantStatus row={r} /> },
    { key: 'sync', title: '设备（已下发/下发中/失败）', width: 170, render: (_, r) => `${r.held} / ${r.pending} / ${r.failed}` },
    { key: 'reason', title: '原因', dataIndex: 'reason', width: 180, ellipsis: true },
    { key: 'create_time', title: '提交时间', dataIndex: 'create_time', width: 170 },
    { key: 'actions', title: '操作', width: 200, fixed: 'right', render: (_, r) => extra(r) },
  ];
}

/**
 * /carpark/current (门禁授权; docs/product.md#access-control): every grant with its status and how
 * many devices hold it; /carpark/currentadd and /carpark/currentedit?id= open the form.
 */
export default function GrantList() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const canWrite = useCanWrite(ACCESS_ROLES.staff);
  const list = useList('accessgrantlist', { revoked: 'N', sort: 'desc' });
  const [editing, setEditing] = useState<GrantItem | 'new' | null>(null);
  const [info, setInfo] = useState<number | null>(null);
  const editId = pathname.endsWith('/currentedit') ? Number(params.get('id')) || 0 : 0;
  useEffect(() => {
    if (pathname.endsWith('/currentadd')) setEditing('new');
    else if (editId) void call('accessgrantinfo', { id: editId }).then(setEditing, () => undefined);
  }, [pathname, editId]);
  const close = () => {
    setEditing(null);
    if (!pathname.endsWith('/current')) void navigate('/carpark/current', { replace: true });
    list.reload();
  };
  return (
    <>
      <TablePage<GrantItem, Filters>
        testId="grant-page"
        title="门禁授权"
        list={list}
        columns={grantColumns((r) => (
          <Space size={0}>
            <Button size="small" type="link" onClick={() => setInfo(r.id)} data-testid={`grant-info-${r.id}`}>
              详情
            </Button>
            {canWrite && r.revoked === 'N' && (
              <>
                {/* a visitor's face follows the registration (访客管理), not this form */}
                {r.person_kind !== 'visitor' && (
                  <Button size="small" type="link" onClick={() => setEditing(r)} data-testid={`grant-edit-${r.id}`}>
                    编辑
                  </Button>
                )}
                <RevokeButton row={r} onDone={() => list.reload()} />
              </>
            )}
          </Space>
        ))}
        rowKey="id"
        initialFilters={{ revoked: 'N' }}
        onSearch={(v) =>
          list.setFilters({
            keyword: given(v.keyword) as string | undefined,
            status: given(v.status) as never,
            person_kind: given(v.person_kind) as never,
            region_id: given(v.region_id) as number | undefined,
            revoked: (given(v.revoked) as never) ?? '',
            sort: 'desc',
          })
        }
        toolbar={
          canWrite && (
            <Button type="primary" onClick={() => setEditing('new')} data-testid="grant-add">
              新增授权
            </Button>
          )
        }
        filters={
          <>
            <Form.Item name="keyword" label="人员">
              <Input allowClear maxLength={30} placeholder="姓名、手机号、房屋" data-testid="grant-filter-keyword" />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select allowClear style={{ width: 140 }} options={statusFilterOptions()} data-testid="grant-filter-status" />
            </Form.Item>
            <Form.Item name="person_kind" label="类型">
              <Select allowClear style={{ width: 100 }} options={enumOptions(PERSON_KIND)} />
            </Form.Item>
            <Form.Item name="region_id" label="区域">
              <SmallSelect widget={{ small: 'accessregion_small_list' }} values={{}} allowClear style={{ width: 180 }} />
            </Form.Item>
            <Form.Item name="revoked" label="注销">
              <Select
                allowClear
                style={{ width: 110 }}
                options={[
                  { value: 'N', label: '在用' },
                  { value: 'Y', label: '已注销' },
                ]}
              />
            </Form.Item>
          </>
        }
        tableProps={{ scroll: { x: 1700 }, size: 'middle' }}
      />
      {editing && <GrantForm editing={editing} onClose={close} />}
      {info !== null && <GrantInfo id={info} actions={false} onClose={() => setInfo(null)} />}
    </>
  );
}
