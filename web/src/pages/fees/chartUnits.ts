import { formatMoney } from '../../utils/formatMoney';

/**
 * The units of a chart's figures, so that a tooltip and an axis say what they count: money in
 * 元 (grouped, two decimals), rooms in 户, rates in %.
 */
export type ChartUnit = '元' | '户' | '笔' | '%';

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** One figure as a tooltip shows it: 12,345.60 元, 12 户, 95.5%. */
export function chartValue(value: unknown, unit: ChartUnit): string {
  const v = Array.isArray(value) ? value[value.length - 1] : value;
  if (v === null || v === undefined || v === '' || v === '-') return '-';
  if (unit === '元') return formatMoney(typeof v === 'number' ? v : String(v), { unit: '元' });
  const n = Number(v);
  if (!Number.isFinite(n)) return String(v);
  return unit === '%' ? `${whole.format(n)}%` : `${whole.format(n)} ${unit}`;
}

/** A value axis that names its unit above it and groups its labels' thousands. */
export function valueAxis(unit: ChartUnit, extra: Record<string, unknown> = {}) {
  return {
    type: 'value',
    name: unit === '%' ? '%' : unit,
    axisLabel: { formatter: (v: number) => (unit === '%' ? `${whole.format(v)}%` : whole.format(v)) },
    ...extra,
  };
}

/** What a series gives its tooltip: each of its values with the unit. */
export const seriesTooltip = (unit: ChartUnit) => ({ valueFormatter: (v: unknown) => chartValue(v, unit) });

/** An axis chart's tooltip whose series all count in one unit. */
export const axisTooltip = (unit: ChartUnit) => ({ trigger: 'axis', ...seriesTooltip(unit) });
