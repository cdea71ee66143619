import { useState } from 'react';
import { Button, Progress, Tag, Upload } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { FeeImportRow } from '@wuye/contract/fees';
import type { JobStatus } from '@wuye/contract/jobs';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { importStatusColor, useJob, useJobFinished } from '../../api/useJob';
import { useList } from '../../api/useList';
import ImportDeleteButton from '../../components/ImportDeleteButton';
import TablePage from '../../components/TablePage';
import { fileToBase64, saveFile } from './shared';

/** The fees area's Excel imports: their methods, words and test ids (the bill import keeps its journey's ids). */
export const FEE_IMPORTS = {
  bills: {
    title: '历史账单导入',
    imported: '导入账单',
    testId: 'feeimport-page',
    idPrefix: 'import',
    list: 'feeimportlist',
    template: () => call('feeimporttemplate', {}),
    upload: (filename: string, file_base64: string) => request('feebillimport', { filename, file_base64 }),
    errors: (job_id: number) => call('feeimporterrors', { job_id }),
  },
  meter: {
    title: '抄表读数导入',
    imported: '导入读数',
    testId: 'meterimport-page',
    idPrefix: 'meterimport',
    list: 'meterimportlist',
    template: () => call('meterreadingtemplate', {}),
    upload: (filename: string, file_base64: string) => request('meterreadingimport', { filename, file_base64 }),
    errors: (job_id: number) => call('meterreadingerrors', { job_id }),
  },
} as const;

export type FeeImportKind = keyof typeof FEE_IMPORTS;

/** One import: template download, upload with the job's progress bar, and its log with the error report. */
export default function ImportPanel({ kind }: { kind: FeeImportKind }) {
  const cfg = FEE_IMPORTS[kind];
  const list = useList(cfg.list, { sort: 'desc' });
  const [jobId, setJobId] = useState<number>();
  const job = useJob(jobId);
  useJobFinished(job, list.reload);

  const upload = async (file: File) => {
    try {
      const answer = await cfg.upload(file.name, await fileToBase64(file));
      noticeSuccess(answer.return_msg ?? '已开始导入');
      setJobId(answer.data.job_id);
    } catch {
      // toasted by the client
    }
    return false;
  };

  const columns: TableColumnsType<FeeImportRow> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: '文件', dataIndex: 'filename', width: 200 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 100,
      render: (_, r) => <Tag color={importStatusColor({ ...r, status: r.status as JobStatus })}>{r.status_ch}</Tag>,
    },
    { title: '行数', dataIndex: 'total', width: 80 },
    { title: cfg.imported, dataIndex: 'imported', width: 90 },
    { title: '错误行', dataIndex: 'error_count', width: 80 },
    { title: '操作人', dataIndex: 'create_user', width: 90 },
    { title: '时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 180,
      render: (_, r) => (
        <>
          {r.error_count > 0 && (
            <Button
              size="small"
              type="link"
              onClick={() =>
                void cfg
                  .errors(r.id)
                  .then(saveFile)
                  .catch(() => undefined)
              }
            >
              下载错误报告
            </Button>
          )}
          <ImportDeleteButton id={r.id} status={r.status as JobStatus} onDeleted={list.reload} />
        </>
      ),
    },
  ];

  return (
    <>
      <TablePage<FeeImportRow>
        testId={cfg.testId}
        title={cfg.title}
        list={list}
        columns={columns}
        rowKey="id"
        toolbar={
          <>
            <Button
              icon={<DownloadOutlined />}
              onClick={() =>
                void cfg
                  .template()
                  .then(saveFile)
                  .catch(() => undefined)
              }
              data-testid={`${cfg.idPrefix}-template`}
            >
              下载模板
            </Button>
            <Upload accept=".xlsx" showUploadList={false} beforeUpload={(f) => upload(f)}>
              <Button type="primary" icon={<UploadOutlined />} data-testid={`${cfg.idPrefix}-upload`}>
                上传 Excel
              </Button>
            </Upload>
          </>
        }
      />
      {job && (
        <Progress
          percent={job.percent}
          status={job.status === 'failed' ? 'exception' : undefined}
          data-testid={`${cfg.idPrefix}-progress`}
          style={{ marginTop: 12 }}
        />
      )}
    </>
  );
}
