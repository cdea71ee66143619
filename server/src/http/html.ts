/** Text made safe for HTML markup and attribute values (the first screen's names and titles). */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** i18next's interpolation of the {{key}} slots of the home page's words (contract/src/home.ts). */
export const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (slot, key: string) => (key in values ? String(values[key]) : slot));
