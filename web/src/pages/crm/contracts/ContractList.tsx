import { Button, Space } from 'antd';
import { Link, useNavigate } from 'react-router';
import { contractFlow, roomSales, type ContractItem } from '@wuye/contract/crm/contracts';
import { CRM_ROLES } from '@wuye/contract/crm/roles';
import { request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { ResourcePage, WorkflowActions, useRoles } from '../../../components/resource';

/** The row actions of a contract in a list: 详情, its workflow's steps, 续签, 附件. */
export function ContractActions({ row, onDone }: { row: ContractItem; onDone: () => void }) {
  const navigate = useNavigate();
  const can = useRoles();
  const renew = async () => {
    try {
      const answer = await request('contractrenew', { id: row.id });
      noticeSuccess(answer.return_msg);
      void navigate(`/crm/editroomsales?id=${answer.data.id}`);
    } catch {
      /* shown by the client */
    }
  };
  return (
    <Space size={0} wrap>
      <Button size="small" type="link" onClick={() => void navigate(`/crm/roomshow?id=${row.id}`)} data-testid={`roomsales-show-${row.id}`}>
        详情
      </Button>
      {row.status === 'A' && can([...CRM_ROLES.contractAudit]) && (
        <Button
          size="small"
          type="link"
          onClick={() => void navigate(`/crm/contract_audit?id=${row.id}`)}
          data-testid={`roomsales-audit-${row.id}`}
        >
          审批
        </Button>
      )}
      <WorkflowActions
        flow={{
          def: {
            ...contractFlow.def,
            transitions: {
              submit: contractFlow.def.transitions.submit,
              void: contractFlow.def.transitions.void,
              terminate: contractFlow.def.transitions.terminate,
            },
          },
        }}
        row={row as never}
        resource="roomsales"
        onDone={onDone}
      />
      {(row.status === 'Y' || row.status === 'E') && !row.renewal_id && can([...CRM_ROLES.contracts]) && (
        <Button size="small" type="link" onClick={() => void renew()} data-testid={`roomsales-renew-${row.id}`}>
          续签
        </Button>
      )}
    </Space>
  );
}

/**
 * /crm/roomsaleslist (合同列表; docs/product.md#crm-contracts): the contracts of rooms and parking
 * spaces (sale, lease, parking) with their collection; /crm/other_contracts lists the other kind.
 */
export function Contracts({ section }: { section: 'units' | 'other' }) {
  const navigate = useNavigate();
  return (
    <ResourcePage<ContractItem>
      resource={roomSales}
      title={section === 'other' ? '其他合同' : '房屋合同'}
      listOptions={{ permanent: { section }, path: section === 'other' ? '/crm/other_contracts' : '/crm/roomsaleslist' }}
      columns={{
        contract_no: { render: (v: string, r: ContractItem) => <Link to={`/crm/roomshow?id=${r.id}`}>{v}</Link> },
      }}
      toolbar={
        section === 'other' && (
          <Button type="primary" onClick={() => void navigate('/crm/addroomsales?section=other')} data-testid="other-contract-add">
            新增其他合同
          </Button>
        )
      }
      rowActions={(row, list) => <ContractActions row={row} onDone={() => list.reload()} />}
    />
  );
}

export default function ContractList() {
  return <Contracts section="units" />;
}
