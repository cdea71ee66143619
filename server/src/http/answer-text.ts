import type { Answer } from '@wuye/contract';
import { JsonText } from './registry.js';

/** The body of an RPC answer: JSON.stringify, but data the database wrote as JSON goes in as it is. */
export function answerText(a: Answer): string {
  if (!(a.data instanceof JsonText)) return JSON.stringify(a);
  return `{"return_code":${JSON.stringify(a.return_code)},"return_msg":${JSON.stringify(a.return_msg)},"data":${a.data.text}}`;
}
