/**
 * The OpenTelemetry semantic-convention names the gateway emits (GenAI, plus `error.type` and
 * `http.response.status_code`), held here rather than imported from `@opentelemetry/semantic-conventions`: its
 * entries build every constant of every domain, deprecated maps included (about 4 MiB of heap and source in each
 * gateway process), and its README asks users of unstable names to copy them. Values as of semantic conventions
 * 1.45.0 (`gen-ai-conventions.test.ts` checks them against the package).
 */

/** `error.type` attribute (stable). */
export const ATTR_ERROR_TYPE = 'error.type';
/** `http.response.status_code` attribute (stable). */
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';

/** `gen_ai.operation.name` attribute. */
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
/** `gen_ai.provider.name` attribute. */
export const ATTR_GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
/** `gen_ai.request.model` attribute. */
export const ATTR_GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
/** `gen_ai.request.stream` attribute. */
export const ATTR_GEN_AI_REQUEST_STREAM = 'gen_ai.request.stream';
/** `gen_ai.response.finish_reasons` attribute. */
export const ATTR_GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
/** `gen_ai.response.time_to_first_chunk` attribute. */
export const ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK = 'gen_ai.response.time_to_first_chunk';
/** `gen_ai.token.type` attribute. */
export const ATTR_GEN_AI_TOKEN_TYPE = 'gen_ai.token.type';
/** `gen_ai.usage.cache_creation.input_tokens` attribute. */
export const ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';
/** `gen_ai.usage.cache_read.input_tokens` attribute. */
export const ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
/** `gen_ai.usage.input_tokens` attribute. */
export const ATTR_GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
/** `gen_ai.usage.output_tokens` attribute. */
export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
/** `gen_ai.usage.reasoning.output_tokens` attribute. */
export const ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS = 'gen_ai.usage.reasoning.output_tokens';
/** `gen_ai.operation.name` value `chat`. */
export const GEN_AI_OPERATION_NAME_VALUE_CHAT = 'chat';
/** `gen_ai.operation.name` value `embeddings`. */
export const GEN_AI_OPERATION_NAME_VALUE_EMBEDDINGS = 'embeddings';
/** `gen_ai.operation.name` value `generate_content`. */
export const GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT = 'generate_content';
/** `gen_ai.token.type` value `input`. */
export const GEN_AI_TOKEN_TYPE_VALUE_INPUT = 'input';
/** `gen_ai.token.type` value `output`. */
export const GEN_AI_TOKEN_TYPE_VALUE_OUTPUT = 'output';
/** `gen_ai.client.operation.duration` histogram. */
export const METRIC_GEN_AI_CLIENT_OPERATION_DURATION = 'gen_ai.client.operation.duration';
/** `gen_ai.client.operation.time_to_first_chunk` histogram. */
export const METRIC_GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK = 'gen_ai.client.operation.time_to_first_chunk';
/** `gen_ai.client.token.usage` histogram. */
export const METRIC_GEN_AI_CLIENT_TOKEN_USAGE = 'gen_ai.client.token.usage';
