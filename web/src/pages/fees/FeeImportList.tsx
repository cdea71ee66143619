import { useState } from 'react';
import { Button, Progress, Tag, Upload } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { FeeImportRow } from '@wuye/contract/fees';
import type { JobStatus } from '@wuye/contract/jobs';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { JOB_STATUS_COLOR, useJob, useJobFinished } from '../../api/useJob';
import { useList } from '../../api/useList';
import ImportDeleteButton from '../../components/ImportDeleteButton';
import TablePage from '../../components/TablePage';
import { fileToBase64, saveFile } from './shared';

/** Historical bill import (/fees/feeimportlist, upload-excels): template, upload, progress, error report. */
export default function FeeImportList() {
  const list = useList('feeimportlist', { sort: 'desc' });
  const [jobId, setJobId] = useState<number>();
  const job = useJob(jobId);
  useJobFinished(job, list.reload);

  const upload = async (file: File) => {
    try {
      const answer = await request('feebillimport', { filename: file.name, file_base64: await fileToBase64(file) });
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
      render: (s: string, r) => <Tag color={JOB_STATUS_COLOR[s as JobStatus]}>{r.status_ch}</Tag>,
    },
    { title: '行数', dataIndex: 'total', width: 80 },
    { title: '导入账单', dataIndex: 'imported', width: 90 },
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
                void call('feeimporterrors', { job_id: r.id })
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
        testId="feeimport-page"
        title="历史账单导入"
        list={list}
        columns={columns}
        rowKey="id"
        toolbar={
          <>
            <Button
              icon={<DownloadOutlined />}
              onClick={() =>
                void call('feeimporttemplate', {})
                  .then(saveFile)
                  .catch(() => undefined)
              }
              data-testid="import-template"
            >
              下载模板
            </Button>
            <Upload accept=".xlsx" showUploadList={false} beforeUpload={(f) => upload(f)}>
              <Button type="primary" icon={<UploadOutlined />} data-testid="import-upload">
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
          data-testid="import-progress"
          style={{ marginTop: 12 }}
        />
      )}
    </>
  );
}
