/**
 * Stream event types this family maps onto normalized events or the terminal (§2.8 of the chat wire fact sheet).
 *
 * - `response.created`, `response.in_progress`, `response.queued`: lifecycle snapshots; read for shape only.
 * - `response.completed` / `response.incomplete` / `response.failed`: the terminal markers.
 * - `error`: a mid-stream failure (flat `{code, message, param}` or nested `{error:{type, code, message, param}}`);
 *   it ends the stream as one failed terminal at once.
 * - `response.output_item.added` / `.done`: open and settle reasoning and function-call blocks; `.done` is
 *   authoritative and fills in anything a server did not stream.
 * - `response.content_part.added` / `.done`, `response.output_text.delta` / `.done`, `response.refusal.delta` /
 *   `.done`: text and refusal blocks (one per message content part).
 * - `response.reasoning_summary_part.added` / `.done`, `response.reasoning_summary_text.delta` / `.done`,
 *   `response.reasoning_text.delta` / `.done`: the text of the reasoning block of their item.
 * - `response.function_call_arguments.delta` / `.done`: tool-call argument text (`.done` must equal the deltas).
 */
export const OPENAI_RESPONSES_MAPPED_EVENT_TYPES: readonly string[] = Object.freeze([
  'response.queued',
  'response.created',
  'response.in_progress',
  'response.completed',
  'response.incomplete',
  'response.failed',
  'error',
  'response.output_item.added',
  'response.output_item.done',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.delta',
  'response.output_text.done',
  'response.refusal.delta',
  'response.refusal.done',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_part.done',
  'response.reasoning_summary_text.delta',
  'response.reasoning_summary_text.done',
  'response.reasoning_text.delta',
  'response.reasoning_text.done',
  'response.function_call_arguments.delta',
  'response.function_call_arguments.done',
]);

/**
 * Stream event types that are known and harmless: they are skipped without reading their payload beyond `type`.
 *
 * - `response.output_text.annotation.added`: citations; the normalized text block has no annotations.
 * - Progress and argument streams of server-side tools (web search, file search, code interpreter, image
 *   generation, MCP, shell, apply-patch): their items are server-side (skipped) or refused when they ask for a client
 *   action (see `OPENAI_RESPONSES_CLIENT_ACTION_ITEM_TYPES`), so their progress never carries chat content.
 * - `response.custom_tool_call_input.*`: the input of a custom tool call; the call item itself is refused at
 *   `output_item.added`, before any of these could matter.
 * - `response.audio.*`: audio output, which this family never asks for (text modality only).
 * - `response.apply_patch_call_operation_diff.*`: not in the SDK union or the spec, but seen live (§2.8).
 */
export const OPENAI_RESPONSES_HARMLESS_EVENT_TYPES: readonly string[] = Object.freeze([
  'response.output_text.annotation.added',
  'response.custom_tool_call_input.delta',
  'response.custom_tool_call_input.done',
  'response.mcp_call_arguments.delta',
  'response.mcp_call_arguments.done',
  'response.code_interpreter_call_code.delta',
  'response.code_interpreter_call_code.done',
  'response.shell_call_command.added',
  'response.shell_call_command.delta',
  'response.shell_call_command.done',
  'response.shell_call_output_content.delta',
  'response.shell_call_output_content.done',
  'response.web_search_call.in_progress',
  'response.web_search_call.searching',
  'response.web_search_call.completed',
  'response.file_search_call.in_progress',
  'response.file_search_call.searching',
  'response.file_search_call.completed',
  'response.code_interpreter_call.in_progress',
  'response.code_interpreter_call.interpreting',
  'response.code_interpreter_call.completed',
  'response.image_generation_call.in_progress',
  'response.image_generation_call.generating',
  'response.image_generation_call.completed',
  'response.image_generation_call.partial_image',
  'response.mcp_call.in_progress',
  'response.mcp_call.completed',
  'response.mcp_call.failed',
  'response.mcp_list_tools.in_progress',
  'response.mcp_list_tools.completed',
  'response.mcp_list_tools.failed',
  'response.audio.delta',
  'response.audio.done',
  'response.audio.transcript.delta',
  'response.audio.transcript.done',
  'response.apply_patch_call_operation_diff.delta',
  'response.apply_patch_call_operation_diff.done',
]);
