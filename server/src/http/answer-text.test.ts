import { describe, expect, it } from 'vitest';
import { answerText } from './answer-text.js';
import { JsonText } from './registry.js';

describe('answerText', () => {
  it('is JSON.stringify of an ordinary answer', () => {
    const a = { return_code: 'SUCCESS', return_msg: '操作成功', data: { items: [{ id: 1, fee: '12.50' }], total: 1 } };
    expect(answerText(a)).toBe(JSON.stringify(a));
  });

  it('puts JSON text from the database in as data, unchanged', () => {
    const text = '{"items" : [{"id":1,"address":"1号楼1单元101"}]}';
    const body = answerText({ return_code: 'SUCCESS', return_msg: '操作"成功"', data: new JsonText(text) });
    expect(JSON.parse(body)).toEqual({
      return_code: 'SUCCESS',
      return_msg: '操作"成功"',
      data: { items: [{ id: 1, address: '1号楼1单元101' }] },
    });
    expect(body.endsWith(`"data":${text}}`)).toBe(true);
  });
});
