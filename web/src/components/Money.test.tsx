import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { Table } from 'antd';
import { formatMoney, Money, moneyColumn, MoneyStatistic, moneyTitle } from './Money';

describe('formatMoney', () => {
  it('groups thousands and always shows two decimals', () => {
    expect(formatMoney('0.00')).toBe('0.00');
    expect(formatMoney('0')).toBe('0.00');
    expect(formatMoney('999.9')).toBe('999.90');
    expect(formatMoney('12345.60')).toBe('12,345.60');
    expect(formatMoney('98765432109.99')).toBe('98,765,432,109.99');
    expect(formatMoney(' 1000 ')).toBe('1,000.00');
  });

  it('keeps the minus sign of a negative amount before the unit', () => {
    expect(formatMoney('-1234567.05')).toBe('-1,234,567.05');
    expect(formatMoney('-12.5', { unit: '¥' })).toBe('-¥12.50');
    expect(formatMoney('-12.5', { unit: '元' })).toBe('-12.50 元');
  });

  it('puts ¥ before a figure and 元 after a sentence amount', () => {
    expect(formatMoney('12345.6', { unit: '¥' })).toBe('¥12,345.60');
    expect(formatMoney('0.00', { unit: '¥' })).toBe('¥0.00');
    expect(formatMoney('12345.6', { unit: '元' })).toBe('12,345.60 元');
  });

  it('shows nothing (or the given text) for an absent amount, and other text as it is', () => {
    expect(formatMoney(null)).toBe('');
    expect(formatMoney(undefined)).toBe('');
    expect(formatMoney('')).toBe('');
    expect(formatMoney('', { empty: '-', unit: '¥' })).toBe('-');
    expect(formatMoney(null, { empty: '-' })).toBe('-');
    expect(formatMoney('-', { unit: '¥' })).toBe('-');
    expect(formatMoney('1e5')).toBe('1e5');
  });

  it('formats chart sums (numbers) and fen (bigint)', () => {
    expect(formatMoney(1234567.891)).toBe('1,234,567.89');
    expect(formatMoney(-0.001)).toBe('0.00');
    expect(formatMoney(Number.NaN, { empty: '-' })).toBe('-');
    expect(formatMoney(123456789n)).toBe('1,234,567.89');
    expect(formatMoney(-5n, { unit: '¥' })).toBe('-¥0.05');
    expect(formatMoney(0n)).toBe('0.00');
  });

  it("keeps a unit price's four decimals", () => {
    expect(formatMoney('2.5000')).toBe('2.5000');
    expect(formatMoney('12345.125')).toBe('12,345.125');
  });
});

describe('moneyTitle', () => {
  it('says 元 once, in full-width brackets', () => {
    expect(moneyTitle('实收')).toBe('实收（元）');
    expect(moneyTitle('金额(元)')).toBe('金额（元）');
    expect(moneyTitle('合计（元）')).toBe('合计（元）');
    expect(moneyTitle('续费单价(元/年)')).toBe('续费单价（元/年）');
  });
});

describe('Money, moneyColumn and MoneyStatistic', () => {
  it('draws an amount with digits of one width', () => {
    const { container } = render(<Money value="-98765.4" unit="¥" />);
    const span = container.querySelector('span.money') as HTMLElement;
    expect(span.textContent).toBe('-¥98,765.40');
    expect(span.style.fontVariantNumeric).toBe('tabular-nums');
  });

  it('makes a right-aligned column whose title names the unit', () => {
    type Row = { id: number; amount: string | null };
    const rows: Row[] = [
      { id: 1, amount: '12345.6' },
      { id: 2, amount: null },
      { id: 3, amount: '-3.00' },
    ];
    const { container } = render(
      <Table<Row> rowKey="id" pagination={false} dataSource={rows} columns={[moneyColumn<Row>('实收', 'amount')]} />,
    );
    expect(container.querySelector('th')?.textContent).toBe('实收（元）');
    const cells = [...container.querySelectorAll('tbody td')] as HTMLElement[];
    expect(cells.map((c) => c.textContent)).toEqual(['12,345.60', '', '-3.00']);
    expect(cells[0]!.style.textAlign).toBe('right');
  });

  it('lets a column keep a title of its own and override the cell', () => {
    const col = moneyColumn('单价', 'unit_price', { title: '单价（元/吨）', width: 90 });
    expect(col.title).toBe('单价（元/吨）');
    expect(col.width).toBe(90);
    expect(col.align).toBe('right');
  });

  it('shows a summary figure with ¥', () => {
    const { container, rerender } = render(<MoneyStatistic title="应收" value="1234567.5" />);
    expect(container.querySelector('.ant-statistic-content-value')?.textContent).toBe('¥1,234,567.50');
    rerender(<MoneyStatistic title="应收" value={undefined} />);
    expect(container.querySelector('.ant-statistic-content-value')?.textContent).toBe('-');
  });
});
