import type { PatrolPointItem } from '@wuye/contract';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Prints QR labels of points, one by one or as an A4 sheet (3 a row): each label carries the QR
 * of the point's code, its number (typed on the check-in page when a camera is not at hand) and name.
 */
export async function printLabels(points: readonly PatrolPointItem[], title: string): Promise<void> {
  const w = window.open('', '_blank');
  if (!w) return;
  const { default: QRCode } = await import('qrcode');
  const labels = await Promise.all(
    points.map(async (p) => {
      const src = await QRCode.toDataURL(p.qr_code, { width: 220, margin: 1 });
      return `<div class="label"><img src="${src}" alt="QR"><div class="no">${escapeHtml(p.number)}</div><div class="name">${escapeHtml(p.name)}</div><div class="loc">${escapeHtml(p.location)}</div></div>`;
    }),
  );
  w.document.write(`<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>
    body{font-family:sans-serif;margin:8mm} .sheet{display:flex;flex-wrap:wrap;gap:6mm}
    .label{width:58mm;border:1px dashed #999;padding:3mm;text-align:center;page-break-inside:avoid}
    .label img{width:50mm;height:50mm} .no{font-size:18px;font-weight:bold;letter-spacing:1px} .name{font-size:14px} .loc{font-size:11px;color:#555}
    @page{size:A4;margin:8mm}
  </style></head><body><div class="sheet">${labels.join('')}</div></body></html>`);
  w.document.close();
  w.focus();
  w.print();
}
