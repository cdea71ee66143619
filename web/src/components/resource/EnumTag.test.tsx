import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { valueEnum } from '@wuye/contract/kit/resource';
import { ROOM_STATE } from '@wuye/contract/structure';
import EnumTag, { enumFill } from './EnumTag';

const VISITS = valueEnum({ '': { text: '待审核', tone: 'warning' }, '3': { text: '已拒绝', tone: 'error' } });

describe('EnumTag', () => {
  it("shows a value's text in its tone, '' where the enum names it", () => {
    const { container, rerender } = render(<EnumTag enum={VISITS} value="" />);
    expect(container.textContent).toBe('待审核');
    expect(container.querySelector('.ant-tag')?.className).toContain('warning');
    rerender(<EnumTag enum={VISITS} value="3" />);
    expect(container.querySelector('.ant-tag')?.className).toContain('error');
    rerender(<EnumTag enum={ROOM_STATE} value="" />);
    expect(container.textContent).toBe('');
    rerender(<EnumTag enum={ROOM_STATE} value="occupied" />);
    expect(container.textContent).toBe('已入住');
  });

  it("fills a surface with the light colour of the value's tone", () => {
    expect(enumFill(ROOM_STATE, 'vacant')).toBe('#f0f0f0');
    expect(enumFill(ROOM_STATE, 'occupied')).toBe('#d9f7be');
    expect(enumFill(ROOM_STATE, 'rented')).toBe('#bae0ff');
    expect(enumFill(ROOM_STATE, 'renovating')).toBe('#ffe7ba');
  });
});
