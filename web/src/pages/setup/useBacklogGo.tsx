import { useState, type ReactNode } from 'react';
import { Button, Descriptions, Modal, Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { BACKLOG_KIND, type BacklogItem } from '@wuye/contract/system';
import { MSG } from '@wuye/contract/messages';
import { BACKLOG_COUNT_KEY, BACKLOG_PENDING_KEY } from '../../api/backlog';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import EnumTag from '../../components/resource/EnumTag';
import SafeButton from '../../components/SafeButton';
import { useRoutesInfo } from '../../router/context';
import { findFlat } from '../../router/helpers';
import { backlogTarget } from './backlogTarget';

export const BACKLOG_STATUS_TEXT: Record<BacklogItem['status'], string> = { E: '待处理', Y: '已处理' };

/**
 * 去处理 of a to-do (the to-do page, the home page): the page where its work is done, or, where
 * the console has no such page, its details with 标记完成. Also marks an item done.
 */
export function useBacklogGo(onChanged?: () => void): {
  go: (item: BacklogItem) => void;
  markDone: (item: BacklogItem) => Promise<void>;
  detail: ReactNode;
} {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { flat } = useRoutesInfo();
  const [shown, setShown] = useState<BacklogItem | null>(null);

  const markDone = async (item: BacklogItem) => {
    try {
      const answer = await request('backlog_done', { id: item.id });
      noticeSuccess(answer.return_msg || MSG.saved);
      setShown((s) => (s && s.id === item.id ? { ...s, status: 'Y' } : s));
      onChanged?.();
      void queryClient.invalidateQueries({ queryKey: BACKLOG_COUNT_KEY });
      void queryClient.invalidateQueries({ queryKey: BACKLOG_PENDING_KEY });
    } catch {
      // the client toasted the reason
    }
  };

  const go = (item: BacklogItem) => {
    const target = backlogTarget(item, (pathname) => !!findFlat(flat, pathname));
    if (!target) setShown(item);
    else if ('external' in target) window.open(target.external, '_blank', 'noopener');
    else void navigate(target.page);
  };

  const detail = (
    <Modal
      open={!!shown}
      title="待办详情"
      onCancel={() => setShown(null)}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={() => setShown(null)}>
          关闭
        </Button>,
        shown?.status === 'E' && (
          <SafeButton key="done" type="primary" onClick={() => shown && void markDone(shown)} data-testid="backlog-detail-done">
            标记完成
          </SafeButton>
        ),
      ]}
    >
      {shown && (
        <Descriptions column={1} bordered size="small" data-testid="backlog-detail">
          <Descriptions.Item label="标题">{shown.title}</Descriptions.Item>
          <Descriptions.Item label="类型">
            <EnumTag enum={BACKLOG_KIND} value={shown.kind} />
          </Descriptions.Item>
          <Descriptions.Item label="内容">{shown.content || '-'}</Descriptions.Item>
          <Descriptions.Item label="状态">
            <Tag color={shown.status === 'Y' ? 'success' : 'warning'}>{BACKLOG_STATUS_TEXT[shown.status]}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label="创建时间">{shown.create_time}</Descriptions.Item>
          {shown.done_time ? <Descriptions.Item label="处理时间">{shown.done_time}</Descriptions.Item> : null}
        </Descriptions>
      )}
    </Modal>
  );

  return { go, markDone, detail };
}
