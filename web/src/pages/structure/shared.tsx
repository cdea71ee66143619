import type { ReactNode } from 'react';
import { Button, Card, Empty } from 'antd';
import { useNavigate } from 'react-router';
import type { MethodName, MethodOutput } from '@wuye/contract';
import { STRUCTURE_WRITERS } from '@wuye/contract/structure';
import { MSG } from '@wuye/contract/messages';
import { request, type CallArgs } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useCanWrite as useKitCanWrite } from '../../components/resource';

/** True when the user may change the structure (the contract's write roles; the server checks the same). */
export function useCanWrite(roles: readonly string[] = STRUCTURE_WRITERS): boolean {
  return useKitCanWrite(roles);
}

/** Runs a write and shows its return_msg as the success notice (docs/product.md#success-notice: 成功, 2 seconds). */
export async function save<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<MethodOutput<M>> {
  const answer = await request(method, ...args);
  noticeSuccess(answer.return_msg ?? MSG.saved);
  return answer.data;
}

export { useConfirmDelete } from '../../components/useConfirmDelete';

/** The frame every structure page sits in. */
export function PageCard({ title, extra, children }: { title: ReactNode; extra?: ReactNode; children: ReactNode }) {
  return (
    <Card title={title} extra={extra} variant="borderless" className="structure-page">
      {children}
    </Card>
  );
}

export { fileToBase64, saveFile } from '../../utils/files';

/** A room page opened without its room (/editroom, /roominfo typed alone): where to pick one. */
export function NoRoomChosen({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <PageCard title={title}>
      <Empty description="未指定房屋，请在房屋管理中选择一间房屋" data-testid="no-room-chosen">
        <Button type="primary" onClick={() => void navigate('/roomlist')}>
          前往房屋管理
        </Button>
      </Empty>
    </PageCard>
  );
}
