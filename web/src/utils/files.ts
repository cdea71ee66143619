import type { FileAnswer } from '@wuye/contract';

const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  ofd: 'application/ofd',
  xml: 'application/xml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The file's type by its extension (a workbook unless it says otherwise). */
export const fileType = (filename: string): string => TYPES[/\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? ''] ?? TYPES.xlsx!;

/** Saves an export, template or document answer ({ filename, content_base64 }) as a download. */
export function saveFile(file: FileAnswer): void {
  const bytes = Uint8Array.from(atob(file.content_base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: fileType(file.filename) }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // the browser has started the download by then; the object URL can go
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Prints a file the browser shows itself (an invoice's PDF): drawn in a hidden frame, whose print
 * dialog opens once it has loaded; the frame goes when the page does or at the next print.
 */
export function printFile(file: FileAnswer): void {
  const bytes = Uint8Array.from(atob(file.content_base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: fileType(file.filename) }));
  document.getElementById('print-frame')?.remove();
  const frame = document.createElement('iframe');
  frame.id = 'print-frame';
  frame.title = file.filename;
  frame.style.position = 'fixed';
  frame.style.width = '0';
  frame.style.height = '0';
  frame.style.border = '0';
  frame.onload = () => frame.contentWindow?.print();
  frame.src = url;
  document.body.appendChild(frame);
}

/** A picked file as base64 (without the data: prefix), for upload inside the JSON call. */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:.*?;base64,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('读取文件失败'));
    reader.readAsDataURL(file);
  });
}
