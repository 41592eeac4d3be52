/** OpenAI's error envelope (`{error:{message,type,param,code}}`), shared by the four OpenAI surfaces. */
export function openAiErrorBody(status: number, message: string): unknown {
  const [type, code] =
    status === 401
      ? ['invalid_request_error', 'invalid_api_key']
      : status === 404
        ? ['invalid_request_error', 'model_not_found']
        : status === 429
          ? ['requests', 'rate_limit_exceeded']
          : status >= 500
            ? ['server_error', null]
            : ['invalid_request_error', null];
  return { error: { message, type, param: null, code } };
}

/** The status OpenAI sends with a recorded body: 200 unless it is an error envelope. */
export function openAiRecordedStatus(body: unknown): number {
  const error = (body as { error?: { type?: unknown; code?: unknown } } | null)?.error;
  if (typeof error !== 'object' || error === null) return 200;
  if (error.code === 'invalid_api_key') return 401;
  if (error.code === 'insufficient_quota' || error.code === 'rate_limit_exceeded' || error.type === 'insufficient_quota') return 429;
  if (error.type === 'server_error') return 500;
  return 400;
}
