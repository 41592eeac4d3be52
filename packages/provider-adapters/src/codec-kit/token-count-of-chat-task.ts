import { CodecErrorV1, tokenCountTaskV3Schema, type TaskEnvelopeV3, type TokenCountTaskV3 } from '@tokenforge/model-protocol';

/**
 * The token-count task of a decoded client chat request: the members that count as input (system, messages, tools,
 * hosted tools, tool choice, reasoning); the rest of a chat task (sampling, output budget, stream) does not count.
 * An ingress for a dialect's counting endpoint decodes the body with the chat ingress and keeps this.
 *
 * @throws {CodecErrorV1} `invalid-request` when the decoded task is not a chat task or the result is not a valid
 * token-count task.
 */
export function tokenCountOfChatTask(task: TaskEnvelopeV3): TokenCountTaskV3 {
  if (task.kind !== 'chat') throw new CodecErrorV1('invalid-request', 'a count request must describe a chat request', { path: 'body' });
  const candidate = {
    kind: 'token-count' as const,
    messages: task.messages,
    ...(task.system === undefined ? {} : { system: task.system }),
    ...(task.tools === undefined ? {} : { tools: task.tools }),
    ...(task.hostedTools === undefined ? {} : { hostedTools: task.hostedTools }),
    ...(task.toolChoice === undefined ? {} : { toolChoice: task.toolChoice }),
    ...(task.reasoning === undefined ? {} : { reasoning: task.reasoning }),
  };
  const checked = tokenCountTaskV3Schema.safeParse(candidate);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue === undefined ? 'body' : issue.path.map(String).join('.') || 'body';
    throw new CodecErrorV1('invalid-request', `the request does not form a valid token-count task at ${path}`, { path });
  }
  return checked.data;
}

/** A JSON answer of a client dialect's counting endpoint (status 200). */
export function clientCountJsonResponse(value: unknown): { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: Uint8Array } {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(value)) };
}
