import type { FormInstance } from 'antd';

/**
 * antd's answer when a form's rules refuse its values ({ errorFields, values }): the form already
 * shows each message at its field, so it is no failure of the page and nothing to log.
 */
export function isFormValidationError(error: unknown): boolean {
  return !!error && typeof error === 'object' && Array.isArray((error as { errorFields?: unknown }).errorFields);
}

/**
 * The form's values when its rules pass, else undefined (its fields say what is wrong). A submit
 * awaits this instead of form.validateFields(), whose refusal would otherwise end the submit as an
 * unhandled rejection.
 */
export async function validValues<T>(form: FormInstance<T>): Promise<T | undefined> {
  try {
    return await form.validateFields();
  } catch (error) {
    if (isFormValidationError(error)) return undefined;
    throw error;
  }
}

/** A value enum's entries as a Select's options, in their order. */
export const enumOptions = <V extends string>(e: Record<V, { text: string }>) =>
  (Object.entries(e) as Array<[V, { text: string }]>).map(([value, v]) => ({ value, label: v.text }));
