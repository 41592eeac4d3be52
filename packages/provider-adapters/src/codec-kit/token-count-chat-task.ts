import type { ChatTaskV3, TokenCountResultV3, TokenCountTaskV3 } from '@tokenforge/model-protocol';

/**
 * The chat task whose input a token-count task counts: the same system, messages, tools, tool choice and
 * reasoning, not streamed. A family encodes it with its own chat encoders and keeps the members its counting
 * endpoint takes, so the counted input is exactly the input that would be sent.
 */
export function tokenCountChatTask(task: TokenCountTaskV3): ChatTaskV3 {
  return {
    kind: 'chat',
    stream: false,
    messages: task.messages,
    ...(task.system === undefined ? {} : { system: task.system }),
    ...(task.tools === undefined ? {} : { tools: task.tools }),
    ...(task.hostedTools === undefined ? {} : { hostedTools: task.hostedTools }),
    ...(task.toolChoice === undefined ? {} : { toolChoice: task.toolChoice }),
    ...(task.reasoning === undefined ? {} : { reasoning: task.reasoning }),
  };
}

/** The completed terminal of a token-count task, with the count the provider answered. */
export function tokenCountTerminal(inputTokens: number): { readonly status: 'completed'; readonly result: TokenCountResultV3 } {
  return { status: 'completed', result: { kind: 'token-count', inputTokens } };
}
