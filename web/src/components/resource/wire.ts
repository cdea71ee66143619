import { request, type OkAnswer } from '../../api/client';

/**
 * A call by a method name a description holds (the contract types those names through the
 * description's schemas; here they are plain strings). Errors are shown by the client.
 */
export const requestMethod = request as unknown as (method: string, payload: Record<string, unknown>) => Promise<OkAnswer<unknown>>;
