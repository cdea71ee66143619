import { z } from 'zod';

/** An uploaded file travels inside the JSON call as base64 (one wire format for everything). */
export const fileBase64 = z.string().min(1, '请选择文件').max(14_000_000, '文件不能超过10MB');

/** Answer of an export or a template download: the browser saves it as `filename`. */
export interface FileAnswer {
  filename: string;
  content_base64: string;
}

/** The largest image an upload takes (a logo, a QR code, a floor plan). */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/** An image's address as imageupload answers it: /files/<id>/<key>.<ext> (the only kind a form keeps). */
export const IMAGE_URL_PATTERN = /^\/files\/\d{1,15}\/[0-9a-f]{32}\.(png|jpg|gif|webp)$/;
export const imageUrl = z.string().regex(IMAGE_URL_PATTERN, '图片地址无效，请重新上传');

/** Up to `max` uploaded photos (a repair's 9, a checklist item's 1); none by default. */
export function photoList(max: number) {
  return z.array(imageUrl).max(max, `最多上传${max}张图片`).default([]);
}

export const fileSchemas = {
  imageupload: z.object({
    file_base64: fileBase64,
    filename: z.string().trim().min(1, '请选择文件').max(200),
  }),
};

export interface UploadedImage {
  /** where the console shows it: /files/<id>/<key>.<ext> */
  url: string;
  name: string;
  size: number;
}

export interface FileOutputs {
  imageupload: UploadedImage;
}
