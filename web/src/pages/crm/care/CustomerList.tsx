import { useRef, useState } from 'react';
import { Alert, Badge, Button, Checkbox, Descriptions, Form, Modal, Space, Spin, Typography } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { CARE_CUSTOMER_KIND, CARE_IMPORT_KINDS, careCustomer, type CareCustomerItem } from '@wuye/contract/crm/care';
import { careAffair, type CareAffairItem } from '@wuye/contract/crm/careAffairs';
import { request, call } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { ResourcePage, SmallSelect, invalidateResource, useCanWrite, useResourceForm } from '../../../components/resource';
import { AffairFormModal, AttentionTags } from './parts';

const LIST_OPTIONS = { path: '/crm/customerlist' };

/** A new affair for a customer: a call today, taken by their steward. */
export function affairDefaults(c: Pick<CareCustomerItem, 'id' | 'steward_id'> | null): Record<string, unknown> {
  if (!c) return {};
  return {
    customer_id: c.id,
    kind: 'call',
    due_date: dayjs().format('YYYY-MM-DD'),
    ...(c.steward_id ? { assignee_id: c.steward_id } : {}),
  };
}

/**
 * 从住户导入: a building's residents of the chosen kinds not recorded yet, counted first, then
 * recorded all at once (or none), with a steward for them if chosen.
 */
function ImportResidents({ onClose }: { onClose: (done: boolean) => void }) {
  const [bid, setBid] = useState<number>();
  const [kinds, setKinds] = useState<string[]>(['owner', 'tenant']);
  const [steward, setSteward] = useState<number>();
  const [busy, setBusy] = useState(false);
  const preview = useQuery({
    queryKey: ['res', 'carecustomer', 'importpreview', bid, kinds],
    queryFn: () => call('careimportpreview', { bid: bid!, kinds: kinds as never }),
    enabled: !!bid && kinds.length > 0,
    retry: false,
  });
  const p = preview.data;
  const save = async () => {
    if (!bid || !p?.to_add) return;
    setBusy(true);
    try {
      const answer = await request('careimport', { bid, kinds: kinds as never, ...(steward ? { steward_id: steward } : {}) });
      noticeSuccess(answer.return_msg);
      onClose(true);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title="从住户导入"
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      okText={p?.to_add ? `导入 ${p.to_add} 位` : '导入'}
      okButtonProps={{ disabled: !p?.to_add, loading: busy, 'data-testid': 'care-import-ok' } as never}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label="楼栋" required>
          <SmallSelect
            widget={{ small: 'building_small_list' }}
            values={{}}
            value={bid}
            onChange={(v) => setBid(v as number)}
            placeholder="请选择楼栋"
            testId="care-import-building"
          />
        </Form.Item>
        <Form.Item label="住户身份">
          <Checkbox.Group
            value={kinds}
            onChange={(v) => setKinds(v as string[])}
            options={CARE_IMPORT_KINDS.map((k) => ({ value: k, label: CARE_CUSTOMER_KIND[k].text }))}
            data-testid="care-import-kinds"
          />
        </Form.Item>
        <Form.Item label="负责管家" extra="不选则导入后再分配">
          <SmallSelect
            widget={{ small: 'care_staff_small_list' }}
            values={{}}
            value={steward}
            onChange={(v) => setSteward(v as number | undefined)}
            placeholder="请选择负责管家"
            allowClear
            testId="care-import-steward"
          />
        </Form.Item>
      </Form>
      {preview.isFetching && <Spin />}
      {p && !preview.isFetching && (
        <>
          <Descriptions size="small" column={3} bordered data-testid="care-import-preview">
            <Descriptions.Item label="现住住户">{p.residents}</Descriptions.Item>
            <Descriptions.Item label="已建档">{p.recorded}</Descriptions.Item>
            <Descriptions.Item label="将导入">
              <Typography.Text strong type={p.to_add ? 'success' : undefined}>
                {p.to_add}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Alert
            style={{ marginTop: 12 }}
            type={p.to_add ? 'info' : 'warning'}
            title={
              p.to_add
                ? `将为${p.building}尚未建档的 ${p.to_add} 位住户建立关怀档案，资料、房屋和入住日期从住户带入；任何一位失败则全部不导入。`
                : `${p.building}的所选住户都已建档`
            }
          />
        </>
      )}
    </Modal>
  );
}

/**
 * /crm/customerlist (关怀客户; docs/product.md#crm-care): the care records with their special
 * attention, steward, open affairs and last care; 新增 and 编辑 at /crm/addcus and /crm/editcus,
 * 查看 at /crm/customshow, 新建事务 for a customer, 从住户导入, export.
 */
export default function CustomerList() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(careCustomer.def.roles.write);
  const [importing, setImporting] = useState(false);
  // 新建事务 starts from the customer, today and their steward
  const affairFor = useRef<CareCustomerItem | null>(null);
  const affairForm = useResourceForm<CareAffairItem>(careAffair, {
    defaults: () => affairDefaults(affairFor.current),
    onSaved: () => void invalidateResource(queryClient, careCustomer.def.name),
  });
  const newAffair = (c: CareCustomerItem) => {
    affairFor.current = c;
    affairForm.open();
  };
  return (
    <>
      <ResourcePage<CareCustomerItem>
        resource={careCustomer}
        listOptions={LIST_OPTIONS}
        title="关怀客户"
        toolbar={
          <Button onClick={() => setImporting(true)} data-testid="care-import-open">
            从住户导入
          </Button>
        }
        columns={{
          realname: {
            render: (v: string, r) => (
              <Link to={`/crm/customshow?id=${r.id}`} data-testid={`carecustomer-show-${r.id}`}>
                {v}
              </Link>
            ),
          },
          attention: { render: (v: string[]) => <AttentionTags value={v} /> },
          houses: { ellipsis: true },
          open_affairs: {
            render: (v: number, r) =>
              v ? (
                <Badge
                  count={v}
                  color={r.overdue_affairs ? 'red' : 'orange'}
                  title={r.overdue_affairs ? `其中 ${r.overdue_affairs} 条逾期` : undefined}
                />
              ) : (
                0
              ),
          },
          last_care_time: { render: (v: string) => v || <Typography.Text type="secondary">暂无</Typography.Text> },
        }}
        rowActions={(row) => (
          <Space size={0}>
            <Button
              size="small"
              type="link"
              onClick={() => void navigate(`/crm/customshow?id=${row.id}`)}
              data-testid={`carecustomer-view-${row.id}`}
            >
              查看
            </Button>
            {canWrite && row.status === 'Y' && (
              <Button size="small" type="link" onClick={() => newAffair(row)} data-testid={`carecustomer-affair-${row.id}`}>
                新建事务
              </Button>
            )}
          </Space>
        )}
      />
      <AffairFormModal form={affairForm} />
      {importing && (
        <ImportResidents
          onClose={(done) => {
            setImporting(false);
            if (done) void invalidateResource(queryClient, careCustomer.def.name);
          }}
        />
      )}
    </>
  );
}
