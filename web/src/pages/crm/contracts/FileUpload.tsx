import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Form, Input, Select, Space, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { IMAGE_MAX_BYTES } from '@wuye/contract/files';
import { FILE_CATEGORY, type ContractItem } from '@wuye/contract/crm/contracts';
import { call } from '../../../api/client';
import { noticeSuccess, toastError } from '../../../api/feedback';
import { PhotoGallery } from '../../../components/PhotosInput';
import { fileToBase64 } from '../../../utils/files';

/** Finds a contract by a part of its number, name or party (roomsaleslist). */
function ContractSelect({ value, onChange }: { value?: number; onChange?: (id: number) => void }) {
  const [options, setOptions] = useState<ContractItem[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const search = (keyword: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      call('roomsaleslist', { keyword: keyword.trim() || undefined, limit: 20, sort: 'desc' })
        .then((r) => setOptions(r.items.filter((c) => c.status !== 'V')))
        .catch(() => undefined);
    }, 250);
  };
  useEffect(() => {
    search('');
    return () => clearTimeout(timer.current);
  }, []);
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: search }}
      value={value}
      onChange={onChange}
      placeholder="输入合同编号、名称或乙方搜索"
      style={{ width: '100%', maxWidth: 420 }}
      options={options.map((c) => ({ value: c.id, label: `${c.contract_no} ${c.name}（${c.party_name}）` }))}
      data-testid="upload-contract"
    />
  );
}

/**
 * /crm/uploadimg?id= (上传附件; docs/product.md#crm-contracts): scans and photos of a contract (PNG,
 * JPEG, GIF or WebP, 2 MB each), several at once, with a category and a caption.
 */
export default function FileUpload() {
  const [params] = useSearchParams();
  const [form] = Form.useForm<{ contract_id?: number; category: string; caption: string }>();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const contractId = Form.useWatch('contract_id', form);
  const files = useQuery({
    queryKey: ['contractfilelist', contractId],
    queryFn: () => call('contractfilelist', { contract_id: contractId!, limit: 200 }),
    enabled: !!contractId,
  });
  useEffect(() => {
    const id = Number(params.get('id'));
    if (id) form.setFieldValue('contract_id', id);
  }, [params, form]);

  const upload = async (list: FileList | null) => {
    const chosen = [...(list ?? [])];
    if (!chosen.length) return;
    const v = await form.validateFields().catch(() => null);
    if (!v?.contract_id) return;
    const big = chosen.find((f) => f.size > IMAGE_MAX_BYTES);
    if (big) {
      toastError(`${big.name} 超过 2MB`);
      return;
    }
    setBusy(true);
    let done = 0;
    try {
      for (const f of chosen) {
        const image = await call('imageupload', { file_base64: await fileToBase64(f), filename: f.name });
        await call('contractfileadd', {
          contract_id: v.contract_id,
          url: image.url,
          name: f.name.slice(0, 100),
          category: v.category as never,
          caption: v.caption ?? '',
        });
        done++;
      }
      noticeSuccess(`已上传 ${done} 个附件`);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
      void files.refetch();
    }
  };
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="uploadimg-page">
      <Card title="上传合同附件">
        <Form form={form} layout="vertical" initialValues={{ category: '签字页', caption: '' }}>
          <Form.Item name="contract_id" label="合同" rules={[{ required: true, message: '请选择合同' }]}>
            <ContractSelect />
          </Form.Item>
          <Form.Item name="category" label="类别">
            <Select style={{ width: 160 }} options={enumOptions(FILE_CATEGORY)} data-testid="upload-category" />
          </Form.Item>
          <Form.Item name="caption" label="说明">
            <Input maxLength={100} placeholder="如：第3页签字页" style={{ maxWidth: 420 }} />
          </Form.Item>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            title="支持 PNG、JPEG、GIF、WebP 图片，单个不超过 2MB，可一次选择多张。扫描件请保存为图片后上传。"
          />
          <Button type="primary" icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()} data-testid="upload-pick">
            选择图片并上传
          </Button>
          <input
            ref={input}
            type="file"
            hidden
            multiple
            accept="image/png,image/jpeg,image/gif,image/webp"
            onChange={(e) => void upload(e.target.files)}
            data-testid="upload-file"
          />
        </Form>
      </Card>
      {contractId && (
        <Card title="该合同的附件" size="small" extra={<Link to={`/crm/roomshow?id=${contractId}`}>查看合同</Link>}>
          {files.data?.items.length ? (
            <Space wrap size="large" data-testid="upload-files">
              {files.data.items.map((f) => (
                <Space key={f.id} orientation="vertical" size={2}>
                  <PhotoGallery urls={[f.url]} size={96} />
                  <Typography.Text>{f.category}</Typography.Text>
                  <Typography.Text type="secondary">{f.caption || f.name}</Typography.Text>
                </Space>
              ))}
            </Space>
          ) : (
            <Typography.Text type="secondary">暂无附件</Typography.Text>
          )}
        </Card>
      )}
    </Space>
  );
}
