import { useCallback, useRef, useState } from 'react';
import { Alert, Button, Modal, Progress, Space, Table, Typography } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { JobInfo, MemberImportResult } from '@wuye/contract';
import { call } from '../../api/client';
import { useJob, useJobFinished } from '../../api/useJob';
import { fileToBase64, saveFile } from './shared';

type RowError = MemberImportResult['errors'][number];

/** memberimport: template, upload, job progress, result or per-row errors with the report. */
export default function MemberImport({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const [jobId, setJobId] = useState<number | null>(null);
  const job = useJob(jobId);
  const [uploading, setUploading] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  useJobFinished(
    job,
    useCallback(
      (j: JobInfo) => {
        if (j.status === 'done' && !(j.result as MemberImportResult).errors.length) onDone();
      },
      [onDone],
    ),
  );

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setJobId(null);
    try {
      const { job_id } = await call('memberimport', { file_base64: await fileToBase64(file), filename: file.name });
      setJobId(job_id);
    } catch {
      /* shown by the client */
    } finally {
      setUploading(false);
      if (inputRef.current) inputRef.current.value = '';
    }
  };

  const result = job?.status === 'done' ? (job.result as MemberImportResult) : null;
  const errors: RowError[] = result?.errors ?? [];
  return (
    <Modal
      title="导入住户"
      open={open}
      onCancel={onClose}
      footer={null}
      width={720}
      modalRender={(node) => <div data-testid="member-import">{node}</div>}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Button
            icon={<DownloadOutlined />}
            onClick={() =>
              void call('memberimporttemplate')
                .then(saveFile)
                .catch(() => undefined)
            }
            data-testid="member-import-template"
          >
            下载模板
          </Button>
          <Button
            type="primary"
            icon={<UploadOutlined />}
            loading={uploading}
            onClick={() => inputRef.current?.click()}
            data-testid="member-import-pick"
          >
            选择 Excel 并导入
          </Button>
          <input
            ref={inputRef}
            type="file"
            hidden
            accept=".xlsx"
            data-testid="member-import-file"
            onChange={(e) => void upload(e.target.files?.[0])}
          />
        </Space>
        <Typography.Text type="secondary">房屋必须已存在；任何一行有错误时整个文件都不导入。</Typography.Text>
        {jobId !== null && (
          <Progress
            percent={job?.percent ?? 0}
            status={job?.status === 'failed' || errors.length ? 'exception' : job?.status === 'done' ? 'success' : 'active'}
            data-testid="member-import-progress"
          />
        )}
        {job?.status === 'failed' && <Alert type="error" showIcon message="导入失败，未导入任何数据" description={job.error} />}
        {result && !errors.length && (
          <Alert
            type="success"
            showIcon
            data-testid="member-import-success"
            message={`导入成功：新增住户 ${result.created_members} 人，关联房屋 ${result.linked_rooms} 条`}
          />
        )}
        {errors.length > 0 && (
          <>
            <Alert
              type="error"
              showIcon
              data-testid="member-import-errors"
              message={`校验未通过：共 ${errors.length} 处错误，未导入任何数据`}
              action={
                <Button
                  danger
                  size="small"
                  onClick={() =>
                    void call('memberimporterrors', { job_id: jobId! })
                      .then(saveFile)
                      .catch(() => undefined)
                  }
                >
                  下载错误报告
                </Button>
              }
            />
            <Table<RowError>
              size="small"
              rowKey={(e) => `${e.row}-${e.column}-${e.reason}`}
              dataSource={errors}
              pagination={{ pageSize: 10 }}
              columns={[
                { title: '行号', dataIndex: 'row', width: 80 },
                { title: '列', dataIndex: 'column', width: 120 },
                { title: '原因', dataIndex: 'reason' },
              ]}
            />
          </>
        )}
      </Space>
    </Modal>
  );
}
