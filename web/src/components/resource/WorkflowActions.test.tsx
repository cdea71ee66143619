import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { z } from 'zod';
import { valueEnum } from '@wuye/contract/kit/resource';
import { workflow, type WorkflowLogItem } from '@wuye/contract/kit/workflow';
import { useUser } from '../../stores/user';
import { renderAt } from './testing';
import WorkflowActions from './WorkflowActions';
import WorkflowTimeline from './WorkflowTimeline';

const calls = vi.hoisted(() => [] as Array<[string, Record<string, unknown>]>);
vi.mock('../../api/client', () => ({
  call: vi.fn(async () => ({ items: [] })),
  request: vi.fn(async (method: string, payload: Record<string, unknown>) => {
    calls.push([method, payload]);
    return { return_msg: '操作成功', data: null };
  }),
}));
vi.mock('../../api/feedback', () => ({ noticeSuccess: () => undefined, feedback: () => null, toastError: () => undefined }));

const REFUND_STATUS = valueEnum({
  E: { text: '待审批', tone: 'warning' },
  Y: { text: '已退款', tone: 'success' },
  N: { text: '已驳回', tone: 'error' },
});
const refundFlow = workflow({
  name: 'refund',
  label: '退款申请',
  states: REFUND_STATUS,
  transitions: {
    approve: {
      method: 'refundapprove',
      label: '同意',
      from: ['E'],
      to: 'Y',
      roles: ['fees'],
      fixed: { approve: true },
      confirm: '确定同意退款？',
    },
    reject: {
      method: 'refundapprove',
      label: '驳回',
      from: ['E'],
      to: 'N',
      roles: ['fees'],
      fixed: { approve: false },
      input: { reason: z.string().trim().min(1, '请输入驳回原因').max(200) },
      inputLabels: { reason: '驳回原因' },
      danger: true,
    },
    reopen: { method: 'refundreopen', label: '重新打开', from: ['N'], to: 'E', roles: ['setup'] },
    close: {
      method: 'refundclose',
      label: '关闭',
      from: ['N'],
      to: 'N',
      roles: ['setup'],
      input: { cause: z.enum(['duplicate', 'invalid']) },
      inputLabels: { cause: '关闭原因' },
      inputEnums: { cause: valueEnum({ duplicate: { text: '重复' }, invalid: { text: '无效' } }) },
    },
  },
});

beforeEach(() => {
  calls.length = 0;
  useUser.setState({ roles: ['fees'] });
});

describe('WorkflowActions', () => {
  it("shows only the transitions allowed from the row's state for the user's roles", async () => {
    const { unmount } = renderAt(<WorkflowActions flow={refundFlow} row={{ id: 7, status: 'E' }} />);
    expect(await screen.findByTestId('refund-approve-7')).toBeTruthy();
    expect(screen.getByTestId('refund-reject-7')).toBeTruthy();
    expect(screen.queryByTestId('refund-reopen-7')).toBeNull();
    unmount();

    // 已驳回: reopening needs setup, which a fees user lacks; nothing may be done from 已退款
    renderAt(<WorkflowActions flow={refundFlow} row={{ id: 8, status: 'N' }} />);
    expect(screen.queryByRole('button')).toBeNull();
    useUser.setState({ roles: ['setup'] });
    expect(await screen.findByTestId('refund-reopen-8')).toBeTruthy();
  });

  it('asks for confirmation, then calls the method with the id and the fixed values', async () => {
    const done = vi.fn();
    renderAt(<WorkflowActions flow={refundFlow} row={{ id: 7, status: 'E' }} onDone={done} />);
    fireEvent.click(await screen.findByTestId('refund-approve-7'));
    expect(await screen.findByText('确定同意退款？')).toBeTruthy();
    expect(calls).toEqual([]);
    fireEvent.click(await screen.findByTestId('refund-approve-confirm'));
    await waitFor(() => expect(calls).toEqual([['refundapprove', { id: 7, approve: true }]]), { timeout: 5000 });
    await waitFor(() => expect(done).toHaveBeenCalled());
  });

  it('asks for the inputs with their zod rule and sends them with the fixed values', async () => {
    renderAt(<WorkflowActions flow={refundFlow} row={{ id: 7, status: 'E' }} />);
    fireEvent.click(await screen.findByTestId('refund-reject-7'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('驳回原因');
    fireEvent.click(screen.getByTestId('refund-reject-ok'));
    expect(await screen.findByText('请输入驳回原因', {}, { timeout: 5000 })).toBeTruthy();
    expect(calls).toEqual([]);
    fireEvent.change(within(dialog).getByTestId('refund-reject-reason'), { target: { value: ' 重复申请 ' } });
    fireEvent.click(screen.getByTestId('refund-reject-ok'));
    await waitFor(() => expect(calls).toEqual([['refundapprove', { id: 7, approve: false, reason: '重复申请' }]]), { timeout: 5000 });
  });
});

describe('WorkflowTimeline', () => {
  it('shows each step of the log with who, when and what was given', async () => {
    const items: WorkflowLogItem[] = [
      {
        id: 1,
        transition: 'reject',
        transition_ch: '驳回',
        from_state: 'E',
        from_state_ch: '待审批',
        to_state: 'N',
        to_state_ch: '已驳回',
        input: { reason: '重复申请' },
        operator: '张经理',
        create_time: '2026-11-26 10:00:00',
      },
    ];
    renderAt(<WorkflowTimeline flow={refundFlow} items={items} />);
    const timeline = await screen.findByTestId('refund-timeline');
    expect(timeline.textContent).toContain('驳回');
    expect(timeline.textContent).toContain('待审批 → 已驳回');
    expect(timeline.textContent).toContain('驳回原因：重复申请');
    expect(timeline.textContent).toContain('张经理 · 2026-11-26 10:00:00');
  });

  it('gives a coded input its word (关闭原因：重复, not duplicate)', async () => {
    const items: WorkflowLogItem[] = [
      {
        id: 2,
        transition: 'close',
        transition_ch: '关闭',
        from_state: 'N',
        from_state_ch: '已驳回',
        to_state: 'N',
        to_state_ch: '已驳回',
        input: { cause: 'duplicate' },
        operator: '张经理',
        create_time: '2026-11-26 11:00:00',
      },
    ];
    renderAt(<WorkflowTimeline flow={refundFlow} items={items} />);
    const timeline = await screen.findByTestId('refund-timeline');
    expect(timeline.textContent).toContain('关闭原因：重复');
    expect(timeline.textContent).not.toContain('duplicate');
  });
});
