import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Modal, Progress, Space, Table, Typography, type FormInstance } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { ImportRowError, JobInfo, MethodName } from '@wuye/contract';
import { call } from '../api/client';
import { useJob, useJobFinished } from '../api/useJob';
import { fileToBase64, saveFile } from '../utils/files';

type ImportResult = { errors: ImportRowError[] };

/** The rows an import refused: line, column and why, as its error report has them. */
export function ImportErrorTable({ errors, testId }: { errors: readonly ImportRowError[]; testId?: string }) {
  return (
    <Table<ImportRowError>
      size="small"
      rowKey={(e) => `${e.row}-${e.column}-${e.reason}`}
      dataSource={errors as ImportRowError[]}
      pagination={{ pageSize: 10 }}
      data-testid={testId}
      columns={[
        { title: '行号', dataIndex: 'row', width: 80 },
        { title: '列', dataIndex: 'column', width: 120 },
        { title: '原因', dataIndex: 'reason' },
      ]}
    />
  );
}

/**
 * An Excel import as every list offers it (jobs/imports.ts on the server): the template, the
 * upload (with the fields `form` adds, checked first), the job's progress, then the result or the
 * rows to fix with their report. Nothing is imported while any row has an error.
 */
export default function ImportDialog<R extends ImportResult>({
  open,
  onClose,
  onDone,
  title,
  testId,
  methods,
  hint,
  success,
  form,
  children,
}: {
  open: boolean;
  onClose: () => void;
  onDone: () => void;
  title: string;
  /** the dialog's test id; its parts add -template, -pick, -file, -progress, -success, -errors */
  testId: string;
  methods: { template: MethodName; upload: MethodName; errors: MethodName };
  hint: ReactNode;
  /** the success line of a job that imported */
  success: (result: R) => string;
  /** fields sent with the file (an initial password): validated before the file is picked */
  form?: FormInstance;
  children?: ReactNode;
}) {
  const [jobId, setJobId] = useState<number | null>(null);
  const job = useJob(jobId);
  const [uploading, setUploading] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  useJobFinished(
    job,
    useCallback(
      (j: JobInfo) => {
        if (j.status === 'done' && !(j.result as R).errors.length) onDone();
      },
      [onDone],
    ),
  );

  const pick = async () => {
    try {
      await form?.validateFields();
    } catch {
      return;
    }
    inputRef.current?.click();
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setJobId(null);
    try {
      const fields = (form?.getFieldsValue() ?? {}) as Record<string, unknown>;
      const { job_id } = (await call(methods.upload, {
        ...fields,
        file_base64: await fileToBase64(file),
        filename: file.name,
      } as never)) as {
        job_id: number;
      };
      setJobId(job_id);
    } catch {
      /* shown by the client */
    } finally {
      setUploading(false);
      if (inputRef.current) inputRef.current.value = '';
    }
  };

  const result = job?.status === 'done' ? (job.result as R) : null;
  const errors = result?.errors ?? [];
  return (
    <Modal
      title={title}
      open={open}
      onCancel={onClose}
      footer={null}
      width={720}
      modalRender={(node) => <div data-testid={testId}>{node}</div>}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {children}
        <Space wrap>
          <Button
            icon={<DownloadOutlined />}
            onClick={() =>
              void call(methods.template, {} as never)
                .then((f) => saveFile(f as never))
                .catch(() => undefined)
            }
            data-testid={`${testId}-template`}
          >
            下载模板
          </Button>
          <Button type="primary" icon={<UploadOutlined />} loading={uploading} onClick={() => void pick()} data-testid={`${testId}-pick`}>
            选择 Excel 并导入
          </Button>
          <input
            ref={inputRef}
            type="file"
            hidden
            accept=".xlsx"
            data-testid={`${testId}-file`}
            onChange={(e) => void upload(e.target.files?.[0])}
          />
        </Space>
        <Typography.Text type="secondary">{hint}</Typography.Text>
        {jobId !== null && (
          <Progress
            percent={job?.percent ?? 0}
            status={job?.status === 'failed' || errors.length ? 'exception' : job?.status === 'done' ? 'success' : 'active'}
            data-testid={`${testId}-progress`}
          />
        )}
        {job?.status === 'failed' && <Alert type="error" showIcon message="导入失败，未导入任何数据" description={job.error} />}
        {result && !errors.length && <Alert type="success" showIcon data-testid={`${testId}-success`} message={success(result)} />}
        {errors.length > 0 && (
          <>
            <Alert
              type="error"
              showIcon
              data-testid={`${testId}-errors`}
              message={`校验未通过：共 ${errors.length} 处错误，未导入任何数据`}
              action={
                <Button
                  danger
                  size="small"
                  onClick={() =>
                    void call(methods.errors, { job_id: jobId! } as never)
                      .then((f) => saveFile(f as never))
                      .catch(() => undefined)
                  }
                >
                  下载错误报告
                </Button>
              }
            />
            <ImportErrorTable errors={errors} />
          </>
        )}
      </Space>
    </Modal>
  );
}
