import { Button } from 'antd';
import { jobInProgress, type JobStatus } from '@wuye/contract/jobs';
import { request } from '../api/client';
import { noticeSuccess } from '../api/feedback';
import { useConfirmDelete } from './useConfirmDelete';

/** An import log row's delete (importdel: the record and its uploaded file); none while it runs. */
export default function ImportDeleteButton({ id, status, onDeleted }: { id: number; status: JobStatus; onDeleted: () => void }) {
  const confirmDelete = useConfirmDelete();
  if (jobInProgress(status)) return null;
  return (
    <Button
      size="small"
      type="link"
      danger
      data-testid={`import-del-${id}`}
      onClick={() =>
        confirmDelete(async () => {
          const answer = await request('importdel', { id });
          noticeSuccess(answer.return_msg ?? '删除成功');
          onDeleted();
        })
      }
    >
      删除
    </Button>
  );
}
