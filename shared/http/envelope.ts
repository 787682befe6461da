import type { AppError } from '../errors';
import { Page } from '../page';

export function successBody(data: unknown, requestId: string): string {
  if (data instanceof Page) {
    return JSON.stringify({ status: 'success', data: data.dataKey === undefined ? data.items : { [data.dataKey]: data.items }, meta: { requestId, pagination: data.pagination } });
  }
  return JSON.stringify({ status: 'success', data: data ?? null, meta: { requestId } });
}

export function errorBody(error: AppError, requestId: string): string {
  return JSON.stringify({
    status: 'error',
    error: { code: error.code, message: error.message, details: error.details },
    meta: { requestId },
  });
}
