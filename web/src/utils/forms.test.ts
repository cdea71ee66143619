import { describe, expect, it } from 'vitest';
import type { FormInstance } from 'antd';
import { isFormValidationError, validValues } from './forms';

const formThat = (validate: () => Promise<unknown>) => ({ validateFields: validate }) as unknown as FormInstance<{ title: string }>;

describe('a submit with fields the rules refuse', () => {
  it('resolves without values, where validateFields rejects (and would end the submit unhandled)', async () => {
    const refusal = { errorFields: [{ name: ['title'], errors: ['请输入房号'] }], values: {}, outOfDate: false };
    const form = formThat(() => Promise.reject(refusal));
    await expect(form.validateFields()).rejects.toBe(refusal);
    await expect(validValues(form)).resolves.toBeUndefined();
    expect(isFormValidationError(refusal)).toBe(true);
  });
  it('resolves with the values when the rules pass', async () => {
    await expect(validValues(formThat(() => Promise.resolve({ title: '1101' })))).resolves.toEqual({ title: '1101' });
  });
  it('lets any other failure through: that one is a fault', async () => {
    const fault = new TypeError('x is undefined');
    await expect(validValues(formThat(() => Promise.reject(fault)))).rejects.toBe(fault);
    expect(isFormValidationError(fault)).toBe(false);
    expect(isFormValidationError(null)).toBe(false);
  });
});
