import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Card, Tag } from 'antd';
import type { MethodInput, MethodName, MethodOutput, RoomState, SmallItem } from '@wuye/contract';
import { hasAnyRole } from '@wuye/contract/roles';
import { MSG } from '@wuye/contract/messages';
import { call, request, type CallArgs } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useUser } from '../../stores/user';

/** Roles that may change the structure (the server checks the same). */
export const STRUCTURE_WRITERS = ['admin', 'memberbasis'] as const;

export function useCanWrite(roles: readonly string[] = STRUCTURE_WRITERS): boolean {
  const userRoles = useUser((s) => s.roles);
  return hasAnyRole(userRoles, roles);
}

/** Runs a write and shows its return_msg as the success notice (docs/product.md#success-notice: 成功, 2 seconds). */
export async function save<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<MethodOutput<M>> {
  const answer = await request(method, ...args);
  noticeSuccess(answer.return_msg ?? MSG.saved);
  return answer.data;
}

export { useConfirmDelete } from '../../components/useConfirmDelete';

type SmallListMethod = 'building_small_list' | 'unit_small_list' | 'room_small_list' | 'roomcate_small_list';

/** Options of a dropdown loaded from a *_small_list method; skipped while `payload` is null. */
export function useSmallList<M extends SmallListMethod>(method: M, payload: MethodInput<M> | null): { value: number; label: string }[] {
  const [items, setItems] = useState<SmallItem[]>([]);
  const key = JSON.stringify(payload);
  useEffect(() => {
    if (payload === null) {
      setItems([]);
      return;
    }
    let live = true;
    (call as (m: M, p: MethodInput<M>) => Promise<{ items: SmallItem[] }>)(method, payload)
      .then((d) => {
        if (live) setItems(d.items);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
    // the key stands for the payload
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [method, key]);
  return useMemo(() => items.map((i) => ({ value: i.id, label: i.title })), [items]);
}

const STATE_COLORS: Record<RoomState, string> = { vacant: 'default', occupied: 'success', rented: 'processing', renovating: 'warning' };

export function RoomStateTag({ state, text }: { state: RoomState; text: string }) {
  return <Tag color={STATE_COLORS[state]}>{text}</Tag>;
}

/** The frame every structure page sits in. */
export function PageCard({ title, extra, children }: { title: ReactNode; extra?: ReactNode; children: ReactNode }) {
  return (
    <Card title={title} extra={extra} variant="borderless" className="structure-page">
      {children}
    </Card>
  );
}

/** antd Table pagination bound to useList (docs/product.md#paging: 10 a page). */
export function pagination(list: { page: number; limit: number; total: number; setPage: (p: number, l?: number) => void }) {
  return {
    current: list.page,
    pageSize: list.limit,
    total: list.total,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 30, 50],
    showTotal: (total: number) => `共 ${total} 条`,
    onChange: (p: number, l: number) => list.setPage(p, l),
  };
}

export { fileToBase64, saveFile } from '../../utils/files';
