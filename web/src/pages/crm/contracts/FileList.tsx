import { Button, Form, Input, Select, Space } from 'antd';
import type { TableColumnsType } from 'antd';
import { Link, useNavigate } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { FILE_CATEGORY, type ContractFileRow } from '@wuye/contract/crm/contracts';
import { CRM_ROLES } from '@wuye/contract/crm/roles';
import { request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { useList } from '../../../api/useList';
import Permission from '../../../components/Permission';
import { PhotoGallery } from '../../../components/PhotosInput';
import TablePage, { useActionFixed } from '../../../components/TablePage';
import { useConfirmDelete } from '../../../components/useConfirmDelete';

interface Filters {
  category?: string;
  keyword?: string;
}

/**
 * /crm/uploadimglist (合同附件; docs/product.md#crm-contracts): the scans and photos of every
 * contract, by category, with a preview; deleting one of a contract in effect is an approver's.
 */
export default function FileList() {
  const list = useList('contractfilelist', { sort: 'desc' });
  const navigate = useNavigate();
  const confirm = useConfirmDelete();
  const actionFixed = useActionFixed();
  const remove = (r: ContractFileRow) =>
    confirm(async () => {
      const answer = await request('contractfiledel', { id: r.id });
      noticeSuccess(answer.return_msg);
      list.reload();
    });
  const columns: TableColumnsType<ContractFileRow> = [
    { title: '预览', dataIndex: 'url', width: 90, render: (v: string) => <PhotoGallery urls={[v]} size={56} /> },
    {
      title: '合同编号',
      dataIndex: 'contract_no',
      width: 170,
      render: (v: string, r) => <Link to={`/crm/roomshow?id=${r.contract_id}`}>{v}</Link>,
    },
    { title: '合同名称', dataIndex: 'contract_name', width: 170 },
    { title: '类别', dataIndex: 'category', width: 90 },
    { title: '文件名', dataIndex: 'name', width: 160 },
    { title: '说明', dataIndex: 'caption', width: 160 },
    { title: '上传人', dataIndex: 'uploader', width: 90 },
    { title: '上传时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 90,
      fixed: actionFixed,
      render: (_, r) => (
        <Permission roles={[...CRM_ROLES.contracts, 'admin']}>
          <Button size="small" type="link" danger onClick={() => remove(r)} data-testid={`contractfile-del-${r.id}`}>
            删除
          </Button>
        </Permission>
      ),
    },
  ];
  return (
    <TablePage<ContractFileRow, Filters>
      testId="contractfile-page"
      list={list}
      columns={columns}
      rowKey="id"
      onSearch={(v) => list.setFilters({ sort: 'desc', category: (v.category ?? '') as never, keyword: v.keyword?.trim() || undefined })}
      toolbar={
        <Permission roles={[...CRM_ROLES.contracts, 'admin']}>
          <Space>
            <Button type="primary" onClick={() => void navigate('/crm/uploadimg')} data-testid="contractfile-upload">
              上传附件
            </Button>
          </Space>
        </Permission>
      }
      filters={
        <>
          <Form.Item name="category" label="类别">
            <Select allowClear style={{ width: 110 }} options={enumOptions(FILE_CATEGORY)} />
          </Form.Item>
          <Form.Item name="keyword" label="关键字">
            <Input allowClear maxLength={40} placeholder="合同编号、名称、文件名" style={{ width: 190 }} />
          </Form.Item>
        </>
      }
    />
  );
}
