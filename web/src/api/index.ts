/** The one RPC client of the console (docs/product.md#calls, #errors) and its helpers. */
export { ApiError, call, classifyAnswer, request, type CallOptions, type OkAnswer, type WireAnswer } from './client';
export { feedback, noticeSuccess, toastError } from './feedback';
export { useList, type ListFilters, type ListItem, type ListMethod, type UseListResult } from './useList';
export { BACKLOG_COUNT_KEY, useBacklogCount } from './backlog';
export { getSystemExtendInfo } from './system';
