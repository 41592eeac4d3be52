import {
  CodecErrorV1,
  tokenCountTaskV4Schema,
  type ChatTaskV4,
  type TaskEnvelopeV4,
  type TokenCountResultV3,
  type TokenCountTaskV4,
} from '@tokenforge/model-protocol';

type CountedInput = Pick<TokenCountTaskV4, 'messages' | 'system' | 'tools' | 'hostedTools' | 'toolChoice' | 'reasoning'>;

/** The members that count as input, shared by a chat task and a token-count task; absent stays absent. */
function countedInput(task: CountedInput): CountedInput {
  return {
    messages: task.messages,
    ...(task.system === undefined ? {} : { system: task.system }),
    ...(task.tools === undefined ? {} : { tools: task.tools }),
    ...(task.hostedTools === undefined ? {} : { hostedTools: task.hostedTools }),
    ...(task.toolChoice === undefined ? {} : { toolChoice: task.toolChoice }),
    ...(task.reasoning === undefined ? {} : { reasoning: task.reasoning }),
  };
}

/**
 * The chat task whose input a token-count task counts: the same system, messages, tools, tool choice and
 * reasoning, not streamed. A family encodes it with its own chat encoders and keeps the members its counting
 * endpoint takes, so the counted input is exactly the input that would be sent.
 */
export function tokenCountChatTask(task: TokenCountTaskV4): ChatTaskV4 {
  return { kind: 'chat', stream: false, ...countedInput(task) };
}

/**
 * The token-count task of a decoded client chat request: the members that count as input (system, messages, tools,
 * hosted tools, tool choice, reasoning); the rest of a chat task (sampling, output budget, stream) does not count.
 * An ingress for a dialect's counting endpoint decodes the body with the chat ingress and keeps this.
 *
 * @throws {CodecErrorV1} `invalid-request` when the decoded task is not a chat task or the result is not a valid
 * token-count task.
 */
export function tokenCountOfChatTask(task: TaskEnvelopeV4): TokenCountTaskV4 {
  if (task.kind !== 'chat') throw new CodecErrorV1('invalid-request', 'a count request must describe a chat request', { path: 'body' });
  const checked = tokenCountTaskV4Schema.safeParse({ kind: 'token-count', ...countedInput(task) });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue === undefined ? 'body' : issue.path.map(String).join('.') || 'body';
    throw new CodecErrorV1('invalid-request', `the request does not form a valid token-count task at ${path}`, { path });
  }
  return checked.data;
}

/** The completed terminal of a token-count task, with the count the provider answered. */
export function tokenCountTerminal(inputTokens: number): { readonly status: 'completed'; readonly result: TokenCountResultV3 } {
  return { status: 'completed', result: { kind: 'token-count', inputTokens } };
}
