/**
 * A domain answer that is a file rather than JSON (an accounting export): the chain's responder
 * sends its bytes (base64 with `isBase64Encoded`, as API Gateway's proxy integration takes binary
 * bodies) with its `Content-Type` and an attachment `Content-Disposition` naming the file. Errors
 * still answer the JSON envelope. Like `Page`, any layer may return or read it.
 */
export class Download {
  constructor(
    readonly contentType: string,
    readonly fileName: string,
    readonly bytes: Buffer,
  ) {}
}
