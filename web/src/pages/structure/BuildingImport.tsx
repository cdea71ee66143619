import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Progress, Space, Steps, Typography } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { ImportRowError, RoomImportResult } from '@wuye/contract';
import { call } from '../../api/client';
import { jobFinished, useJob } from '../../api/useJob';
import { ImportErrorTable } from '../../components/ImportDialog';
import { invalidateResource } from '../../components/resource';
import { fileToBase64, PageCard, saveFile } from './shared';

/** buildingimport: template, upload, a job with a progress bar, result and error report. */
export default function BuildingImport() {
  const [file, setFile] = useState<File | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);
  const job = useJob(jobId);
  const [uploading, setUploading] = useState(false);
  const [skipExisting, setSkipExisting] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const imported = job?.status === 'done';
  // an import adds buildings, units and rooms: every list and dropdown of them refreshes
  useEffect(() => {
    if (!imported) return;
    for (const name of ['building', 'unit', 'room']) void invalidateResource(queryClient, name);
  }, [imported, queryClient]);

  const start = async () => {
    if (!file) return;
    setUploading(true);
    setJobId(null);
    try {
      const { job_id } = await call('roomimport', {
        file_base64: await fileToBase64(file),
        filename: file.name,
        skip_existing: skipExisting ? 'Y' : 'N',
      });
      setJobId(job_id);
    } catch {
      /* shown by the client */
    } finally {
      setUploading(false);
    }
  };
  const reset = () => {
    setFile(null);
    setJobId(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const result = job?.status === 'done' ? (job.result as RoomImportResult) : null;
  const errors: ImportRowError[] = result?.errors ?? [];
  const step = !jobId ? (file ? 1 : 0) : jobFinished(job) ? 3 : 2;
  // rows refused only because their room exists: the file was most likely imported before
  const existingOnly = errors.length > 0 && errors.every((e) => e.reason.endsWith('已存在'));

  return (
    <PageCard title="批量导入房屋" extra={<Button onClick={() => void navigate('/importlog')}>导入记录</Button>}>
      <Steps
        current={step}
        status={errors.length || job?.status === 'failed' ? 'error' : result ? 'finish' : undefined}
        style={{ marginBottom: 24 }}
        items={[{ title: '下载模板' }, { title: '选择文件' }, { title: '导入中' }, { title: '完成' }]}
      />
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        <Space wrap>
          <Button
            icon={<DownloadOutlined />}
            data-testid="import-template"
            onClick={() =>
              void call('roomimporttemplate')
                .then(saveFile)
                .catch(() => undefined)
            }
          >
            下载导入模板
          </Button>
          <Typography.Text type="secondary">
            按模板填写楼栋、单元、房号等；不存在的楼栋和单元会自动创建。任何一行有错误时整个文件都不会导入。
          </Typography.Text>
        </Space>
        <input
          ref={inputRef}
          type="file"
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          hidden
          data-testid="import-file"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setJobId(null);
          }}
        />
        <Space wrap>
          <Button icon={<UploadOutlined />} onClick={() => inputRef.current?.click()}>
            选择 Excel 文件
          </Button>
          <Typography.Text data-testid="import-filename">{file ? file.name : '未选择文件'}</Typography.Text>
          <Button
            type="primary"
            disabled={!file || (jobId !== null && !jobFinished(job))}
            loading={uploading}
            onClick={() => void start()}
            data-testid="import-start"
          >
            开始导入
          </Button>
          <Checkbox checked={skipExisting} onChange={(e) => setSkipExisting(e.target.checked)} data-testid="import-skip-existing">
            跳过已存在的房屋
          </Checkbox>
        </Space>
        {jobId !== null && (
          <Progress
            percent={job?.percent ?? 0}
            status={job?.status === 'failed' || errors.length ? 'exception' : job?.status === 'done' ? 'success' : 'active'}
            data-testid="import-progress"
          />
        )}
        {job?.status === 'failed' && (
          <Alert type="error" showIcon message="导入失败，未导入任何数据" description={job.error} data-testid="import-failed" />
        )}
        {result && errors.length === 0 && (
          <Alert
            type="success"
            showIcon
            data-testid="import-success"
            message="导入成功"
            description={`新建楼栋 ${result.created_buildings} 个、单元 ${result.created_units} 个、房屋 ${result.created_rooms} 套${
              result.skipped_rooms ? `，跳过已存在的房屋 ${result.skipped_rooms} 套` : ''
            }`}
            action={
              <Space direction="vertical">
                <Button size="small" onClick={() => void navigate('/roomlist')}>
                  查看房屋
                </Button>
                <Button size="small" onClick={reset}>
                  继续导入
                </Button>
              </Space>
            }
          />
        )}
        {errors.length > 0 && (
          <>
            <Alert
              type="error"
              showIcon
              data-testid="import-errors"
              message={`校验未通过：共 ${errors.length} 处错误，未导入任何数据`}
              description={
                existingOnly
                  ? '这些房屋都已存在，该文件可能已导入过。如只需补录新房屋，请勾选“跳过已存在的房屋”后重新导入。'
                  : '请下载错误报告，按行号修改后重新上传。'
              }
              action={
                <Button
                  danger
                  size="small"
                  data-testid="import-error-report"
                  onClick={() =>
                    void call('roomimporterrors', { job_id: jobId! })
                      .then(saveFile)
                      .catch(() => undefined)
                  }
                >
                  下载错误报告
                </Button>
              }
            />
            <ImportErrorTable errors={errors} testId="import-error-table" />
          </>
        )}
      </Space>
    </PageCard>
  );
}
