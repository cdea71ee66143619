import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { z } from 'zod';
import { resource } from '@wuye/contract/kit/resource';
import { useUser } from '../../stores/user';
import { renderAt } from './testing';
import ResourcePage from './ResourcePage';

interface Bike {
  id: number;
  hid: number;
  bid: number;
  tid: number;
  address: string;
  member_id: number | null;
  realname: string;
}

const { backend } = vi.hoisted(() => {
  const rooms: Record<number, { bid: number; tid: number; address: string }> = {
    101: { bid: 1, tid: 11, address: '3号楼1单元301' },
    102: { bid: 1, tid: 11, address: '3号楼1单元302' },
  };
  const people: Record<number, Array<{ id: number; realname: string; mobile: string }>> = {
    101: [{ id: 7, realname: '林晓梅', mobile: '13912345678' }],
    102: [{ id: 8, realname: '王磊', mobile: '15800158003' }],
  };
  const backend = {
    rows: [] as Array<Record<string, unknown>>,
    calls: [] as Array<[string, Record<string, unknown>]>,
    handle(method: string, payload: Record<string, unknown>): { return_msg: string; data: unknown } {
      backend.calls.push([method, payload]);
      const ok = (data: unknown, return_msg = '操作成功') => ({ return_msg, data });
      switch (method) {
        case 'building_small_list':
          return ok({ items: [{ id: 1, title: '3号楼' }] });
        case 'unit_small_list':
          return ok({ items: payload.bid === 1 ? [{ id: 11, title: '1单元' }] : [] });
        case 'room_small_list':
          return ok({ items: payload.tid === 11 ? [101, 102].map((id) => ({ id, title: rooms[id]!.address.slice(-3) })) : [] });
        case 'memberlist':
          return ok({ items: people[payload.hid as number] ?? [], total: 1 });
        case 'bikelist': {
          const items = backend.rows.filter((r) => !payload.hid || r.hid === payload.hid);
          return ok({ items, total: items.length });
        }
        case 'bikeadd':
        case 'bikeedit':
          return ok({ id: 1 }, method === 'bikeadd' ? '添加成功' : '保存成功');
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
vi.mock('../../api/feedback', () => ({ noticeSuccess: () => undefined, feedback: () => null, toastError: () => undefined }));

const bike = resource<Bike>()({
  name: 'bike',
  label: '电动车',
  methods: { list: 'bikelist', add: 'bikeadd', edit: 'bikeedit' },
  roles: { read: 'any', write: 'any' },
  fields: {
    hid: { label: '房屋', zod: z.number({ error: '请选择房屋' }), widget: 'room', in: ['form', 'filter'] },
    member_id: { label: '车主', zod: z.number().optional(), widget: { membersOf: 'hid' }, in: ['form'] },
  },
  columns: [{ key: 'address', label: '房屋' }],
});

const calls = (method: string) => backend.calls.filter(([m]) => m === method).map(([, p]) => p);

/** Opens a select or cascader by its test id. */
function open(testId: string, scope: HTMLElement | Document = document) {
  const box = within(scope as HTMLElement).getByTestId(testId);
  fireEvent.mouseDown(box.querySelector('.ant-select-selector, .ant-select-content, input') ?? box);
}
/** Clicks the option with this text in the open dropdown. */
async function choose(text: string) {
  const items = await screen.findAllByTitle(text);
  fireEvent.click(items.at(-1)!);
}

beforeEach(() => {
  backend.rows = [{ id: 5, hid: 102, bid: 1, tid: 11, address: '3号楼1单元302', member_id: 8, realname: '王磊' }];
  backend.calls = [];
  useUser.setState({ roles: ['admin'], name: 'tester' });
  localStorage.clear();
});

describe('room and member widgets', () => {
  it('adds with the room picked in the cascader and one of the people living in it', async () => {
    renderAt(<ResourcePage resource={bike} />, '/bikes');
    await screen.findByText('3号楼1单元302');
    fireEvent.click(screen.getByTestId('bike-add'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('bike-member_id').className).toContain('disabled');

    open('bike-hid', dialog);
    await choose('3号楼');
    await choose('1单元');
    await choose('301');
    await waitFor(() => expect(calls('memberlist')).toEqual([{ hid: 101, living: 'Y', limit: 50 }]));
    open('bike-member_id', dialog);
    await choose('林晓梅 13912345678');
    fireEvent.click(screen.getByTestId('bike-save'));
    await waitFor(() => expect(calls('bikeadd')).toEqual([{ hid: 101, member_id: 7 }]));
  });

  it("edits showing the row's room path and owner; another room clears the owner", async () => {
    renderAt(<ResourcePage resource={bike} />, '/bikes');
    await screen.findByText('3号楼1单元302');
    fireEvent.click(screen.getByTestId('bike-edit-5'));
    const dialog = await screen.findByRole('dialog');
    const room = within(dialog).getByTestId('bike-hid');
    await waitFor(() => expect(room.textContent).toBe('3号楼 / 1单元 / 302'));
    await waitFor(() => expect(within(dialog).getByTestId('bike-member_id').textContent).toContain('王磊 15800158003'));

    open('bike-hid', dialog);
    await choose('301');
    await waitFor(() => expect(room.textContent).toBe('3号楼 / 1单元 / 301'));
    expect(within(dialog).getByTestId('bike-member_id').textContent).not.toContain('王磊');
    fireEvent.click(screen.getByTestId('bike-save'));
    await waitFor(() => expect(calls('bikeedit')).toEqual([{ id: 5, hid: 101 }]));
  });

  it('narrows the list by the room picked in the filter, kept in the address', async () => {
    renderAt(<ResourcePage resource={bike} />, '/bikes');
    await screen.findByText('3号楼1单元302');
    open('bike-filter-hid');
    await choose('3号楼');
    await choose('1单元');
    await choose('301');
    await waitFor(() => expect(calls('bikelist').at(-1)).toMatchObject({ hid: 101, page: 1 }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/bikes?hid=101'));
    await waitFor(() => expect(screen.queryByText('3号楼1单元302')).toBeNull());
  });
});
