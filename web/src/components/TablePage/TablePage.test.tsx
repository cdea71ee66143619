import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { initI18n } from '../../i18n';
import TablePage, { changedFilterCount } from './TablePage';

initI18n('zh-CN');

interface Row {
  id: number;
  title: string;
}

const list = { items: [{ id: 1, title: '一号' }], total: 1, loading: false, page: 1, limit: 10, setPage: () => undefined };

function page(onSearch: (values: { keyword?: string }) => void) {
  return render(
    <TablePage<Row, { keyword?: string }>
      list={list}
      rowKey="id"
      columns={[{ title: '名称', dataIndex: 'title' }]}
      filters={
        <Form.Item name="keyword" label="关键字">
          <Input data-testid="keyword" />
        </Form.Item>
      }
      onSearch={onSearch}
      testId="things"
    />,
  );
}

/** A window as narrow as a phone: antd's breakpoints (min-width queries) do not match. */
function asPhone() {
  const wide = window.matchMedia;
  window.matchMedia = (query: string) => ({ ...wide(query), matches: query.includes('max-width') }) as MediaQueryList;
  return () => {
    window.matchMedia = wide;
  };
}

describe('TablePage', () => {
  let restore = () => undefined as void;
  afterEach(() => restore());

  it('shows the total as the list words it, when it is not exact', () => {
    render(
      <TablePage<Row>
        list={{ ...list, total: 10000 }}
        rowKey="id"
        columns={[{ title: '名称', dataIndex: 'title' }]}
        totalText={(total) => `共 ${total}+ 条`}
      />,
    );
    expect(screen.getByText('共 10000+ 条')).toBeTruthy();
  });

  it('shows the filters in the toolbar on a desktop', async () => {
    const onSearch = vi.fn();
    page(onSearch);
    expect(screen.queryByTestId('table-page-filter-open')).toBeNull();
    fireEvent.change(screen.getByTestId('keyword'), { target: { value: '一' } });
    fireEvent.click(screen.getByTestId('table-page-search'));
    await waitFor(() => expect(onSearch).toHaveBeenCalledWith({ keyword: '一' }));
  });

  it('keeps the filters behind 筛选 on a phone, searches from the drawer and counts the filters in use', async () => {
    restore = asPhone();
    const onSearch = vi.fn();
    page(onSearch);
    const open = await screen.findByTestId('table-page-filter-open');
    expect(open.textContent).toContain('筛选');
    expect(document.querySelector('.ant-badge-count')).toBeNull();
    fireEvent.click(open);
    fireEvent.change(await screen.findByTestId('keyword'), { target: { value: '一' } });
    fireEvent.click(screen.getByTestId('table-page-search'));
    await waitFor(() => expect(onSearch).toHaveBeenCalledWith({ keyword: '一' }));
    await waitFor(() => expect(document.querySelector('.ant-badge-count')?.textContent).toBe('1'));
  });
});

describe('changedFilterCount', () => {
  it('counts the filters that hold something other than what the page opened with', () => {
    expect(changedFilterCount({ a: undefined, b: '', c: [], d: null })).toBe(0);
    expect(changedFilterCount({ year: 2026, kind: 'room', keyword: '张' }, { year: 2026, kind: 'room' })).toBe(1);
    expect(changedFilterCount({ ids: [1, 2] }, { ids: [1] })).toBe(1);
  });
});
