import type { FileAnswer } from '@wuye/contract';

/** Saves an export or template answer ({ filename, content_base64 }) as a download. */
export function saveFile(file: FileAnswer): void {
  const bytes = Uint8Array.from(atob(file.content_base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // the browser has started the download by then; the object URL can go
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
