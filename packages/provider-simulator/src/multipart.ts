/** One part of a `multipart/form-data` body. */
export interface MultipartPart {
  readonly name: string;
  readonly fileName?: string;
  readonly contentType?: string;
  readonly data: Buffer;
}

/** Parses a `multipart/form-data` body; `undefined` when the content type or framing is wrong. */
export function parseMultipart(contentType: string | undefined, body: Buffer): MultipartPart[] | undefined {
  const match = /^multipart\/form-data;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let position = body.indexOf(delimiter);
  if (position !== 0) return undefined;
  for (;;) {
    position += delimiter.length;
    if (body.subarray(position, position + 2).toString() === '--') return parts;
    if (body.subarray(position, position + 2).toString() !== '\r\n') return undefined;
    position += 2;
    const headerEnd = body.indexOf('\r\n\r\n', position);
    if (headerEnd < 0) return undefined;
    const headers = body.subarray(position, headerEnd).toString('utf8').split('\r\n');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) return undefined;
    const disposition = headers.find((line) => /^content-disposition:/i.test(line)) ?? '';
    const name = /\bname="([^"]*)"/.exec(disposition)?.[1];
    if (name === undefined) return undefined;
    const fileName = /\bfilename="([^"]*)"/.exec(disposition)?.[1];
    const type = headers.find((line) => /^content-type:/i.test(line))?.replace(/^content-type:\s*/i, '');
    parts.push({ name, ...(fileName === undefined ? {} : { fileName }), ...(type === undefined ? {} : { contentType: type }), data: body.subarray(headerEnd + 4, next) });
    position = next + 2;
  }
}
