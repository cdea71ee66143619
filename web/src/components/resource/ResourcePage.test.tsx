import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { z } from 'zod';
import { resource, valueEnum } from '@wuye/contract/kit/resource';
import { useUser } from '../../stores/user';
import { renderAt } from './testing';
import ResourcePage from './ResourcePage';

interface Thing {
  id: number;
  title: string;
  status: 'Y' | 'N';
  room_count: number;
}

const { backend } = vi.hoisted(() => {
  const backend = {
    rows: [] as Array<{ id: number; title: string; status: 'Y' | 'N'; room_count: number }>,
    calls: [] as Array<[string, Record<string, unknown>]>,
    handle(method: string, payload: Record<string, unknown>) {
      backend.calls.push([method, payload]);
      if (method === 'thinglist') {
        const rows = backend.rows.filter(
          (r) => (!payload.title || r.title.includes(String(payload.title))) && (!payload.status || r.status === payload.status),
        );
        const page = Number(payload.page ?? 1);
        const limit = Number(payload.limit ?? 10);
        return { return_msg: '操作成功', data: { items: rows.slice((page - 1) * limit, page * limit), total: rows.length } };
      }
      if (method === 'thingadd') {
        const id = Math.max(0, ...backend.rows.map((r) => r.id)) + 1;
        backend.rows.push({ id, title: String(payload.title), status: payload.status as 'Y' | 'N', room_count: 0 });
        return { return_msg: '添加成功', data: { id } };
      }
      if (method === 'thingdel') {
        backend.rows = backend.rows.filter((r) => r.id !== payload.id);
        return { return_msg: '删除成功', data: null };
      }
      throw new Error(`unexpected ${method}`);
    },
  };
  return { backend };
});

vi.mock('../../api/client', () => ({
  call: vi.fn(async (method: string, payload: Record<string, unknown>) => backend.handle(method, payload ?? {}).data),
  request: vi.fn(async (method: string, payload: Record<string, unknown>) => backend.handle(method, payload ?? {})),
}));
const notices = vi.hoisted(() => [] as string[]);
vi.mock('../../api/feedback', () => ({
  noticeSuccess: (text: string) => notices.push(text),
  feedback: () => null,
  toastError: () => undefined,
}));

const THING_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'error' } });
const thing = resource<Thing>()({
  name: 'thing',
  label: '物品',
  methods: { list: 'thinglist', add: 'thingadd', edit: 'thingedit', del: 'thingdel' },
  roles: { read: 'any', write: ['memberbasis'] },
  fields: {
    title: {
      label: '名称',
      zod: z.string({ error: '请输入名称' }).trim().min(1, '请输入名称').max(10),
      in: ['form', 'table', 'filter'],
    },
    status: { label: '状态', zod: z.enum(['Y', 'N']).default('Y'), enum: THING_STATUS, in: ['form', 'table', 'filter'] },
  },
  columns: [{ key: 'room_count', label: '房屋数' }],
});

const listCalls = () => backend.calls.filter(([m]) => m === 'thinglist');
const where = () => screen.getByTestId('where').textContent;

beforeEach(() => {
  backend.rows = [
    { id: 1, title: '扫帚', status: 'Y', room_count: 3 },
    { id: 2, title: '拖把', status: 'N', room_count: 0 },
  ];
  backend.calls = [];
  notices.length = 0;
  useUser.setState({ roles: ['memberbasis'], name: 'tester' });
  localStorage.clear();
});

describe('ResourcePage', () => {
  it('renders the described columns, the read-only ones and the coded values as tags', async () => {
    renderAt(<ResourcePage resource={thing} />, '/things');
    const table = await screen.findByTestId('thing-table');
    await within(table).findByText('扫帚');
    for (const header of ['ID', '名称', '状态', '房屋数', '操作']) expect(within(table).getAllByText(header).length).toBeGreaterThan(0);
    const on = within(table).getByText('启用');
    expect(on.closest('.ant-tag')?.className).toContain('success');
    expect(within(table).getByText('停用').closest('.ant-tag')?.className).toContain('error');
    expect(screen.getByText('共 2 条')).toBeTruthy();
    expect(listCalls()[0]![1]).toMatchObject({ page: 1, limit: 10 });
  });

  it('narrows the list by a filter and keeps it in the address; the address gives the filters back', async () => {
    renderAt(<ResourcePage resource={thing} />, '/things');
    await screen.findByText('扫帚');
    fireEvent.change(screen.getByTestId('thing-filter-title'), { target: { value: '拖' } });
    fireEvent.click(screen.getByTestId('thing-search'));
    await waitFor(() => expect(where()).toBe('/things?title=%E6%8B%96'));
    await waitFor(() => expect(screen.queryByText('扫帚')).toBeNull());
    expect(screen.getByText('拖把')).toBeTruthy();
    expect(listCalls().at(-1)![1]).toMatchObject({ title: '拖', page: 1 });

    fireEvent.click(screen.getByTestId('thing-reset'));
    await waitFor(() => expect(where()).toBe('/things'));
    await screen.findByText('扫帚');
  });

  it('asks again when 搜索 is pressed with the same filters: rows added meanwhile show', async () => {
    renderAt(<ResourcePage resource={thing} />, '/things?title=%E6%8B%96');
    await screen.findByText('拖把');
    const asked = listCalls().length;
    backend.rows.push({ id: 3, title: '拖鞋', status: 'Y', room_count: 0 });
    fireEvent.click(screen.getByTestId('thing-search'));
    await screen.findByText('拖鞋');
    expect(listCalls()).toHaveLength(asked + 1);
    expect(where()).toBe('/things?title=%E6%8B%96');
  });

  it("keeps the filters at the list's own address when the page opened at its form's address", async () => {
    renderAt(<ResourcePage resource={thing} listOptions={{ path: '/things' }} />, '/things/add');
    await screen.findByText('扫帚');
    fireEvent.change(screen.getByTestId('thing-filter-title'), { target: { value: '拖' } });
    fireEvent.click(screen.getByTestId('thing-search'));
    await waitFor(() => expect(where()).toBe('/things?title=%E6%8B%96'));
  });

  it('starts from the filters of a linked address', async () => {
    renderAt(<ResourcePage resource={thing} />, '/things?status=N');
    await screen.findByText('拖把');
    expect(screen.queryByText('扫帚')).toBeNull();
    expect(listCalls()[0]![1]).toMatchObject({ status: 'N' });
  });

  it('adds a row: the form checks with the zod rule, saves, tells the answer and refreshes the list', async () => {
    renderAt(<ResourcePage resource={thing} />, '/things');
    await screen.findByText('扫帚');
    fireEvent.click(screen.getByTestId('thing-add'));
    expect((await screen.findByRole('dialog')).textContent).toContain('新增物品');
    fireEvent.click(screen.getByTestId('thing-save'));
    expect(await screen.findByText('请输入名称', {}, { timeout: 5000 })).toBeTruthy();
    expect(backend.calls.some(([m]) => m === 'thingadd')).toBe(false);

    fireEvent.change(screen.getByTestId('thing-title'), { target: { value: '  水桶 ' } });
    const before = listCalls().length;
    fireEvent.click(screen.getByTestId('thing-save'));
    await waitFor(() => expect(backend.calls.find(([m]) => m === 'thingadd')?.[1]).toEqual({ title: '水桶', status: 'Y' }));
    await waitFor(() => expect(notices).toEqual(['添加成功']));
    await within(screen.getByTestId('thing-table')).findByText('水桶');
    expect(listCalls().length).toBeGreaterThan(before);
  });

  it('shows a field only while the field it depends on holds one of its values', async () => {
    const withReason = resource<Thing>()({
      name: 'thing',
      label: '物品',
      methods: { list: 'thinglist', add: 'thingadd' },
      roles: { read: 'any', write: ['memberbasis'] },
      fields: {
        title: { label: '名称', zod: z.string().trim().min(1, '请输入名称'), in: ['form', 'table'] },
        status: { label: '状态', zod: z.enum(['Y', 'N']).default('Y'), enum: THING_STATUS, widget: 'radio', in: ['form', 'table'] },
        reason: { label: '停用原因', zod: z.string().default(''), in: ['form'], shownWhen: { field: 'status', values: ['N'] } },
      },
    });
    renderAt(<ResourcePage resource={withReason} />, '/things');
    await screen.findByText('扫帚');
    fireEvent.click(screen.getByTestId('thing-add'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByText('停用原因')).toBeNull();
    fireEvent.click(within(dialog).getByLabelText('停用'));
    expect(await within(dialog).findByText('停用原因')).toBeTruthy();
    fireEvent.click(within(dialog).getByLabelText('启用'));
    await waitFor(() => expect(within(dialog).queryByText('停用原因')).toBeNull());
  });

  it("deletes only after the spec's confirmation; cancelling deletes nothing", async () => {
    renderAt(<ResourcePage resource={thing} />, '/things');
    await screen.findByText('扫帚');
    fireEvent.click(screen.getByTestId('thing-del-1'));
    expect(await screen.findByText('此操作将永久删除该数据, 是否继续?')).toBeTruthy();
    fireEvent.click(within(await screen.findByRole('dialog')).getByText(/取\s?消/));
    expect(await screen.findByText('已取消删除')).toBeTruthy();
    expect(backend.calls.some(([m]) => m === 'thingdel')).toBe(false);

    fireEvent.click(screen.getByTestId('thing-del-1'));
    // the cancelled confirmation may still be fading out: the new one is the last
    await waitFor(() => expect(screen.getAllByTestId('confirm-delete-ok').length).toBeGreaterThan(0));
    fireEvent.click(screen.getAllByTestId('confirm-delete-ok').at(-1)!);
    await waitFor(() => expect(backend.calls.find(([m]) => m === 'thingdel')?.[1]).toEqual({ id: 1 }));
    await waitFor(() => expect(screen.queryByText('扫帚')).toBeNull());
    expect(notices).toEqual(['删除成功']);
  });

  it('prints the list alone: its title and data columns, without the selection, row actions and pagination', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    renderAt(<ResourcePage resource={thing} />, '/things');
    const table = await screen.findByTestId('thing-table');
    await within(table).findByText('扫帚');
    expect(table.querySelector('.ant-table-selection-column')).toBeTruthy();
    fireEvent.click(screen.getByTestId('thing-print'));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    expect(document.body.classList.contains('printing-list')).toBe(true);
    expect(screen.getByText('物品管理', { selector: '.resource-print-title' })).toBeTruthy();
    expect(table.querySelector('.ant-table-selection-column')).toBeNull();
    expect(screen.queryByTestId('thing-edit-1')).toBeNull();
    expect(table.querySelector('.ant-pagination')).toBeNull();
    expect(within(table).getByText('扫帚')).toBeTruthy();

    fireEvent(window, new Event('afterprint'));
    await waitFor(() => expect(document.body.classList.contains('printing-list')).toBe(false));
    expect(await screen.findByTestId('thing-edit-1')).toBeTruthy();
    expect(table.querySelector('.ant-table-selection-column')).toBeTruthy();
    print.mockRestore();
  });

  it('shows no write button to a user without the write roles', async () => {
    useUser.setState({ roles: ['cashier'] });
    renderAt(<ResourcePage resource={thing} toolbar={<button data-testid="thing-import">导入</button>} />, '/things');
    await screen.findByText('扫帚');
    expect(screen.queryByTestId('thing-add')).toBeNull();
    expect(screen.queryByTestId('thing-import')).toBeNull();
    expect(screen.queryByTestId('thing-del-1')).toBeNull();
    expect(screen.queryByTestId('thing-edit-1')).toBeNull();
    expect(screen.queryByText('操作')).toBeNull();
    expect(document.querySelector('.ant-table-selection-column')).toBeNull();
  });
});
