import { z } from 'zod';

/** An uploaded file travels inside the JSON call as base64 (one wire format for everything). */
export const fileBase64 = z.string().min(1, '请选择文件').max(14_000_000, '文件不能超过10MB');

/** Answer of an export or a template download: the browser saves it as `filename`. */
export interface FileAnswer {
  filename: string;
  content_base64: string;
}
