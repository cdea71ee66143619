import type { Rule } from 'antd/es/form';
import type { z } from 'zod';

/** zod's own English texts, for the checks a description left without a message. */
const hasChinese = (s: string) => /[\u4e00-\u9fff]/.test(s);

/** The first problem of a value, in the words of the console. */
export function issueText(issue: z.core.$ZodIssue, label: string, choose: boolean): string {
  const i = issue as z.core.$ZodIssue & { origin?: string; maximum?: number | bigint; minimum?: number | bigint; input?: unknown };
  // a schema's own words win, except the bare 不能为空 of a missing value: the form names the field
  if (issue.message === '不能为空') return `请${choose ? '选择' : '输入'}${label}`;
  if (hasChinese(issue.message)) return issue.message;
  switch (i.code) {
    case 'invalid_type':
      return i.input === undefined || i.input === null || i.input === '' || Number.isNaN(i.input)
        ? `请${choose ? '选择' : '输入'}${label}`
        : `${label}格式不正确`;
    case 'too_big':
      return i.origin === 'string' ? `${label}最多${String(i.maximum)}个字符` : `${label}不能大于${String(i.maximum)}`;
    case 'too_small':
      return i.origin === 'string'
        ? Number(i.minimum) <= 1
          ? `请${choose ? '选择' : '输入'}${label}`
          : `${label}至少${String(i.minimum)}个字符`
        : `${label}不能小于${String(i.minimum)}`;
    default:
      return `${label}格式不正确`;
  }
}

/** True when the schema refuses an empty value (the form marks the item required). */
export function isRequired(schema: z.ZodType): boolean {
  return !schema.safeParse(undefined).success;
}

/**
 * An antd form rule that runs the field's zod, the same rule the server parses the payload
 * with, and shows its message. An empty input ('' or null) counts as no value.
 */
export function zodRule(schema: z.ZodType, label = '', choose = false): Rule {
  return {
    required: isRequired(schema),
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value === '' || value === null ? undefined : value);
      if (result.success) return;
      // an empty text is undefined to the schema; a string schema that takes '' wants it back
      if ((value === '' || value === null) && schema.safeParse(value).success) return;
      throw new Error(issueText(result.error.issues[0]!, label, choose));
    },
  };
}
