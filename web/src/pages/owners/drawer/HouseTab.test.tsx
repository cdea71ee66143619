import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../../components/resource/testing';
import { BillTab, CarsTab, FaceTab } from './tabs';

const { backend } = vi.hoisted(() => {
  const backend = {
    calls: [] as Array<[string, Record<string, unknown>]>,
    handle(method: string, payload: Record<string, unknown>): unknown {
      backend.calls.push([method, payload]);
      if (method === 'feebill_cate_small_list')
        return {
          items: [
            { cost_type: 'property', title: '物业费' },
            { cost_type: 'water', title: '水费' },
          ],
        };
      if (method === 'housecarlist') {
        const cars = [
          { id: 1, carlicense: '沪A12345', status: 'Y', status_ch: '正常' },
          { id: 2, carlicense: '沪AD12345', status: 'N', status_ch: '停用' },
        ].filter((c) => !payload.carlicense || c.carlicense.includes(String(payload.carlicense)));
        return { items: cars, total: cars.length };
      }
      return { items: [], total: 0 };
    },
  };
  return { backend };
});

vi.mock('../../../api/client', () => ({
  call: vi.fn(async (method: string, payload: Record<string, unknown>) => backend.handle(method, payload ?? {})),
  request: vi.fn(async (method: string, payload: Record<string, unknown>) => ({ data: backend.handle(method, payload ?? {}) })),
}));

const house = { rid: 1, bid: 2, tid: 3, hid: 4 };
const last = (method: string) => backend.calls.filter(([m]) => m === method).at(-1)?.[1];

beforeEach(() => {
  backend.calls = [];
});

describe("the owner drawer's tabs filter through the kit's FilterBar", () => {
  it('runs a text filter on Enter, and an emptied one at once, with the room and page 1', async () => {
    renderAt(<CarsTab house={house} />);
    const tab = await screen.findByTestId('tab-cars');
    await within(tab).findByText('沪AD12345');
    expect(last('housecarlist')).toEqual({ rid: 1, bid: 2, tid: 3, hid: 4, sort: 'asc', page: 1, limit: 10 });
    const plate = screen.getByTestId('tab-cars-filter-carlicense');
    fireEvent.change(plate, { target: { value: 'AD' } });
    fireEvent.keyDown(plate, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(last('housecarlist')).toMatchObject({ carlicense: 'AD', hid: 4, page: 1 }));
    await waitFor(() => expect(within(tab).queryByText('沪A12345')).toBeNull());
    // the status is the enum's tag
    expect(within(tab).getByText('停用').closest('.ant-tag')).toBeTruthy();

    // emptied, the whole list is back (from the cache of the first load)
    fireEvent.change(plate, { target: { value: '' } });
    await within(tab).findByText('沪A12345', {}, { timeout: 5000 });
  });

  it("sends the bill tab's cost types as a list, chosen from the small list", async () => {
    renderAt(<BillTab house={house} />);
    await screen.findByTestId('tab-bill');
    const select = screen.getByTestId('tab-bill-filter-cost_types');
    fireEvent.mouseDown(select.querySelector('.ant-select-selector, .ant-select-content, input') ?? select);
    fireEvent.click(await screen.findByTitle('水费'));
    await waitFor(() => expect(last('feebilllist')).toMatchObject({ cost_types: ['water'], hid: 4 }));
  });

  it("sends the face tab's date range as its two days", async () => {
    renderAt(<FaceTab house={house} />);
    await screen.findByTestId('tab-face');
    // the range picker's two inputs carry the test id
    const start = screen.getAllByTestId('tab-face-filter-dates')[0]!;
    fireEvent.mouseDown(start);
    fireEvent.click(start);
    fireEvent.click(await screen.findByText('本年'));
    const year = String(new Date().getFullYear());
    await waitFor(() => expect(last('housefacelist')).toMatchObject({ start_date: `${year}-01-01`, end_date: `${year}-12-31`, hid: 4 }));
    expect(last('housefacelist')).not.toHaveProperty('dates');
  });
});
