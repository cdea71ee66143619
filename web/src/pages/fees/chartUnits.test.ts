import { describe, expect, it } from 'vitest';
import { axisTooltip, chartValue, seriesTooltip, valueAxis } from './chartUnits';

describe('chart units', () => {
  it('gives money in tooltips grouped, with 元', () => {
    expect(chartValue('1234567.5', '元')).toBe('1,234,567.50 元');
    expect(chartValue(98765.432, '元')).toBe('98,765.43 元');
    expect(axisTooltip('元').valueFormatter('0.00')).toBe('0.00 元');
    expect(axisTooltip('元').trigger).toBe('axis');
  });

  it('gives rooms in 户 and rates in %', () => {
    expect(chartValue(1234, '户')).toBe('1,234 户');
    expect(seriesTooltip('%').valueFormatter('95.5')).toBe('95.5%');
  });

  it('shows - for a missing value', () => {
    expect(chartValue(null, '元')).toBe('-');
    expect(chartValue('', '%')).toBe('-');
  });

  it('names the unit on the value axis and groups its labels', () => {
    const axis = valueAxis('元');
    expect(axis.name).toBe('元');
    expect(axis.axisLabel.formatter(2500000)).toBe('2,500,000');
    const rate = valueAxis('%', { max: 100 });
    expect(rate.axisLabel.formatter(80)).toBe('80%');
    expect(rate).toMatchObject({ type: 'value', max: 100 });
  });
});
