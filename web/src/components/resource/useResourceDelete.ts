import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '@wuye/contract/messages';
import type { AnyResource } from './types';
import { noticeSuccess } from '../../api/feedback';
import { useConfirmDelete } from '../useConfirmDelete';
import { invalidateResource } from './keys';
import { requestMethod } from './wire';

/**
 * Deletes rows of a resource after the confirmation of docs/product.md#delete-confirmation (此操作将永久删除该数据, 是否继续?;
 * cancelling says 已取消删除), shows the answer's message and refreshes the resource's lists and
 * dropdowns. Several ids are deleted one by one after one confirmation (batch delete); the first
 * refusal stops the batch and is shown by the client.
 */
export function useResourceDelete(resource: AnyResource, onDeleted?: (ids: number[]) => void) {
  const confirmDelete = useConfirmDelete();
  const queryClient = useQueryClient();
  const { def } = resource;
  return useCallback(
    (ids: number | number[]) => {
      const method = def.methods.del;
      if (!method) return;
      const list = Array.isArray(ids) ? ids : [ids];
      confirmDelete(async () => {
        const done: number[] = [];
        try {
          let msg = '';
          for (const id of list) {
            msg = (await requestMethod(method, { id })).return_msg ?? '';
            done.push(id);
          }
          noticeSuccess(list.length > 1 ? `已删除 ${done.length} 条${def.label}` : msg || MSG.saved);
        } finally {
          if (done.length > 0) {
            onDeleted?.(done);
            void invalidateResource(queryClient, def.name);
          }
        }
      });
    },
    [confirmDelete, def, onDeleted, queryClient],
  );
}
