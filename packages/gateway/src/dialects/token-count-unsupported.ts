/**
 * The engine refusal a count request gets when its model has no target that can count: each dialect's egress turns
 * it into its own 400 (OpenAI `unsupported_task`, Anthropic `invalid_request_error`, Gemini `INVALID_ARGUMENT`).
 * Never a fabricated zero.
 */
export const TOKEN_COUNT_UNSUPPORTED_ENGINE_CODE = 'PROTOCOL_ENGINE_TARGET_TASK_MISMATCH';
