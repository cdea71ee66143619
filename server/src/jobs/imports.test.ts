import { describe, expect, it } from 'vitest';
import { importLogFields, type ImportLogRow } from './imports.js';

const job = (over: Partial<ImportLogRow>): ImportLogRow => ({
  id: 7,
  kind: 'meter_import',
  status: 'done',
  total: 3,
  progress: 3,
  error: '',
  created_at: new Date('2026-11-26T02:00:00Z'),
  finished_at: new Date('2026-11-26T02:00:05Z'),
  create_user: null,
  filename: '抄表.xlsx',
  summary: null,
  error_count: 0,
  ...over,
});

describe('what an import log says of an import', () => {
  it('names the outcome by what went in', () => {
    expect(importLogFields(job({}), 3).status_ch).toBe('导入成功');
    // bad rows, nothing written: the file was refused whole
    expect(importLogFields(job({ error_count: 1 }), 0).status_ch).toBe('校验未通过');
    // bad rows found while writing, the others kept
    expect(importLogFields(job({ error_count: 1 }), 2).status_ch).toBe('部分导入');
    expect(importLogFields(job({ status: 'running' }), 0).status_ch).toBe('导入中');
    expect(importLogFields(job({ status: 'failed', error: '文件无法读取' }), 0)).toMatchObject({
      status_ch: '导入失败',
      error: '文件无法读取',
    });
  });

  it('gives the operator and the time as the wire has them', () => {
    expect(importLogFields(job({}), 3)).toMatchObject({ create_user: '', create_time: '2026-11-26 10:00:00', filename: '抄表.xlsx' });
  });
});
