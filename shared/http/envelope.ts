import type { AppError } from '../errors';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { Download } from '../download';
import { Page } from '../page';

export function successBody(data: unknown, requestId: string): string {
  if (data instanceof Page) {
    return JSON.stringify({
      status: 'success',
      data: data.dataKey === undefined ? data.items : { [data.dataKey]: data.items },
      meta: { requestId, pagination: data.pagination },
    });
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

/** A file answer: its bytes base64-encoded (API Gateway and the local stage send them decoded), its type, and a download name. */
export function downloadAnswer(file: Download): APIGatewayProxyResult {
  return {
    statusCode: 200,
    headers: {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.fileName.replace(/["\\\r\n]/g, '_')}"`,
    },
    body: file.bytes.toString('base64'),
    isBase64Encoded: true,
  };
}
