/**
 * The body. Empty bodies are absent bodies; others must be JSON (415) and at most 256 KiB (413).
 * API Gateway hands every request body over base64-encoded (`isBase64Encoded`: every media type is
 * binary on the API, infra/api.ts), and so does the local edge; Middy's parser decodes it before
 * parsing, and the size is the decoded one. A plain body (a test, a bench event) is read as it is.
 * A GET takes no body (no operation reads one, and HTTP gives a GET's content no meaning): one sent
 * is not read, so a GET, a health probe included, is answered as it would be without it, never with
 * a 413 or 415 its description does not list.
 * JSON is UTF-8 (RFC 8259): a body whose bytes are not is refused (400), never parsed with U+FFFD
 * in place of what the client sent and stored so (docs/api.md, "Text").
 */
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { AppError } from '../../errors';
import type { ChainStep } from './state';

export const MAX_BODY_BYTES = 256 * 1024;

const jsonParser = httpJsonBodyParser();

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether the bytes are UTF-8 (a lone surrogate's encoding, an overlong form or a stray byte is not). */
function isUtf8(bytes: Buffer): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export function jsonBody(): ChainStep {
  return {
    before: (request) => {
      const { event } = request;
      const raw = event.body;
      if (raw === null || raw === undefined || raw === '' || event.httpMethod === 'GET') {
        event.body = undefined;
        return;
      }
      if (typeof raw !== 'string') throw new TypeError("the body is not API Gateway's text: it was parsed already");
      const decoded = event.isBase64Encoded ? Buffer.from(raw, 'base64') : undefined;
      const bytes = decoded ? decoded.length : Buffer.byteLength(raw);
      if (bytes > MAX_BODY_BYTES)
        throw new AppError('PAYLOAD_TOO_LARGE', `The body is larger than ${MAX_BODY_BYTES} bytes`);
      // Middy's parser is typed for API Gateway's event, whose body is still that text here. It answers
      // the media type (415) and JSON that does not parse first; bytes that are not UTF-8 are refused after.
      jsonParser.before?.(request as never);
      if (decoded && !isUtf8(decoded)) {
        throw new AppError('VALIDATION_FAILED', 'The body is not valid UTF-8', [
          { path: '/', message: 'must be JSON encoded as UTF-8 (a byte sequence in it is not UTF-8)' },
        ]);
      }
    },
  };
}
