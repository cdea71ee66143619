/**
 * A decimal amount as the server sends it ("39827.5", "-1234567.05") written as people read a
 * large sum: "39,827.50". For display only; what is sent back stays the plain decimal. Kept apart
 * from @wuye/contract/money, which would bring zod onto the dashboard's first load.
 */
export function groupedAmount(value: string): string {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!m) return value;
  const whole = m[2]!.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+$)/g, ',');
  return `${m[1]}${whole}.${(m[3] ?? '').padEnd(2, '0')}`;
}
