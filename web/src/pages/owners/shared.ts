import type { FileAnswer } from '@wuye/contract';

/** The room the drawer and its tabs work on (spec 2.5: every tab receives rid, bid, tid, hid). */
export interface HouseRef {
  /** 0 when unknown: the server then uses the session's community */
  rid: number;
  bid: number;
  tid: number;
  hid: number;
}

/** Roles that manage owners and cars (the server checks the same). */
export const MEMBER_MANAGERS = ['memberbasis'] as const;
export const CAR_MANAGERS = ['memberbasis', 'carpark'] as const;

/** Saves an export or template answer as a download. */
export function saveFile(file: FileAnswer): void {
  const bytes = Uint8Array.from(atob(file.content_base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
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

/** The room's ids as a payload; an unknown rid (0) is left out. */
export const houseFields = (h: HouseRef) => ({ ...(h.rid ? { rid: h.rid } : {}), bid: h.bid, tid: h.tid, hid: h.hid });
