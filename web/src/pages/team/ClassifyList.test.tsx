import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { useUser } from '../../stores/user';
import { renderAt } from '../../components/resource/testing';
import ClassifyList from './ClassifyList';

const { backend } = vi.hoisted(() => {
  const dept = (id: number, title: string, parent_id: number | null, staff_count = 0) => ({
    id,
    title,
    parent_id,
    parent_title: '',
    leader_name: '',
    phone: '',
    staff_count,
    sort: id,
    status: 'Y' as const,
    status_ch: '正常',
    remark: '',
    create_time: '2026-11-29 00:00:00',
  });
  const backend = {
    depts: [] as Array<ReturnType<typeof dept>>,
    calls: [] as Array<[string, Record<string, unknown>]>,
    reset() {
      backend.depts = [dept(1, '阳光物业服务有限公司', null, 3), dept(2, '工程部', 1), dept(3, '维修组', 2), dept(4, '客服部', 1, 1)];
      backend.calls = [];
    },
    handle(method: string, payload: Record<string, unknown>) {
      backend.calls.push([method, payload]);
      if (method === 'deptlist') return { return_msg: '操作成功', data: { items: backend.depts, total: backend.depts.length } };
      if (method === 'dept_small_list')
        return { return_msg: '操作成功', data: { items: backend.depts.map(({ id, title, parent_id }) => ({ id, title, parent_id })) } };
      if (method === 'positionlist') return { return_msg: '操作成功', data: { items: [], total: 0 } };
      if (method === 'deptadd') {
        const id = Math.max(...backend.depts.map((d) => d.id)) + 1;
        backend.depts.push(dept(id, String(payload.title), (payload.parent_id as number | null) ?? null));
        return { return_msg: '添加成功', data: { id } };
      }
      if (method === 'deptedit') return { return_msg: '保存成功', data: null };
      throw new Error(`unexpected ${method}`);
    },
  };
  return { backend };
});

vi.mock('../../api/client', () => ({
  call: vi.fn(async (method: string, payload: Record<string, unknown>) => backend.handle(method, payload ?? {}).data),
  request: vi.fn(async (method: string, payload: Record<string, unknown>) => backend.handle(method, payload ?? {})),
}));
vi.mock('../../api/feedback', () => ({ noticeSuccess: () => undefined, feedback: () => null, toastError: () => undefined }));

const page = (at: string) =>
  renderAt(
    <Routes>
      <Route path="/team/:page" element={<ClassifyList />} />
    </Routes>,
    at,
  );
const where = () => screen.getByTestId('where').textContent;

beforeEach(() => {
  backend.reset();
  useUser.setState({ roles: ['team'], name: 'tester' });
  localStorage.clear();
});

describe('/team/classifylist', () => {
  it('shows the departments as an open tree, the whole list at once', async () => {
    page('/team/classifylist');
    const table = await screen.findByTestId('dept-table');
    await within(table).findByText('维修组');
    // the sub-department sits one level deeper than its parent
    const indent = (title: string) =>
      within(table)
        .getByText(title)
        .closest('tr')!
        .className.match(/level-(\d)/)?.[1];
    expect(indent('阳光物业服务有限公司')).toBe('0');
    expect(indent('工程部')).toBe('1');
    expect(indent('维修组')).toBe('2');
    expect(backend.calls.find(([m]) => m === 'deptlist')![1]).toMatchObject({ limit: 200 });
    for (const header of ['名称', '负责人', '电话', '人数', '排序', '状态'])
      expect(within(table).getAllByText(header).length).toBeGreaterThan(0);
  });

  it('新增下级 adds under the row', async () => {
    page('/team/classifylist');
    await screen.findByText('维修组');
    fireEvent.click(screen.getByTestId('dept-addsub-2'));
    expect((await screen.findByRole('dialog')).textContent).toContain('新增部门');
    fireEvent.change(screen.getByTestId('dept-title'), { target: { value: '水电组' } });
    fireEvent.click(screen.getByTestId('dept-save'));
    await waitFor(() => expect(backend.calls.find(([m]) => m === 'deptadd')?.[1]).toMatchObject({ title: '水电组', parent_id: 2 }));
    // then 编辑 opens that row, not what the last form held
    fireEvent.click(await screen.findByTestId('dept-edit-3'));
    await waitFor(() => expect(screen.getAllByRole('dialog').at(-1)!.textContent).toContain('编辑部门'));
    await waitFor(() => expect((screen.getByTestId('dept-title') as HTMLInputElement).value).toBe('维修组'));
  });

  it('/team/categoryadd?parent_id= opens the form under that parent, and goes back to the list when saved', async () => {
    page('/team/categoryadd?parent_id=4');
    expect((await screen.findByRole('dialog')).textContent).toContain('新增部门');
    fireEvent.change(screen.getByTestId('dept-title'), { target: { value: '投诉组' } });
    fireEvent.click(screen.getByTestId('dept-save'));
    await waitFor(() => expect(backend.calls.find(([m]) => m === 'deptadd')?.[1]).toMatchObject({ title: '投诉组', parent_id: 4 }));
    await waitFor(() => expect(where()).toBe('/team/classifylist'));
  });

  it('/team/categoryedit?id= opens the row in the form', async () => {
    page('/team/categoryedit?id=3');
    expect((await screen.findByRole('dialog')).textContent).toContain('编辑部门');
    expect((screen.getByTestId('dept-title') as HTMLInputElement).value).toBe('维修组');
    fireEvent.click(screen.getByTestId('dept-save'));
    await waitFor(() => expect(backend.calls.find(([m]) => m === 'deptedit')?.[1]).toMatchObject({ id: 3, title: '维修组', parent_id: 2 }));
  });
});
