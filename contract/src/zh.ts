import { z } from 'zod';
import { VERBATIM } from './messages.js';

/**
 * Zod messages in Chinese that name the field, used by every schema on both sides.
 * A schema's own message (e.g. 密码长度为6 - 18个字符) wins over these.
 */
function fieldName(path: readonly PropertyKey[] | undefined): string {
  return path && path.length ? path.map(String).join('.') : '参数';
}

export function issueMessage(issue: z.core.$ZodRawIssue): string {
  const field = fieldName(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return `${field} 不能为空`;
      return `${field} 类型错误，应为${typeName(issue.expected)}`;
    case 'too_small':
      if (issue.origin === 'string') return `${field} 长度不能少于${String(issue.minimum)}个字符`;
      if (issue.origin === 'array') return `${field} 至少需要${String(issue.minimum)}项`;
      return `${field} 不能小于${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `${field} 长度不能超过${String(issue.maximum)}个字符`;
      if (issue.origin === 'array') return `${field} 最多${String(issue.maximum)}项`;
      return `${field} 不能大于${String(issue.maximum)}`;
    case 'invalid_format':
      return `${field} 格式不正确`;
    case 'invalid_value':
      return `${field} 取值不正确`;
    case 'unrecognized_keys':
      return `不支持的字段：${issue.keys.join(', ')}`;
    case 'not_multiple_of':
      return `${field} 精度不正确`;
    default:
      return `${field} 不正确`;
  }
}

function typeName(t: string): string {
  const names: Record<string, string> = {
    string: '文本',
    number: '数字',
    int: '整数',
    boolean: '布尔值',
    array: '列表',
    object: '对象',
    date: '日期',
  };
  return names[t] ?? t;
}

let installed = false;
/** Installs the Chinese messages once per process. */
export function installZhMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: (issue) => issueMessage(issue) });
}
installZhMessages();

/** Short text of a failed parse: the first issue, naming its field unless it is a product text. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return '参数错误';
  const field = issue.path.map(String).join('.');
  if (!field || VERBATIM.has(issue.message) || issue.message.startsWith(field)) return issue.message;
  return `${field}：${issue.message}`;
}
