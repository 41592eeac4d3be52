/** How one dialect names task fields in its own request: task path prefix → client path (`maxOutputTokens` → `max_tokens`). */
export type ClientFieldNames = Readonly<Record<string, string>>;

/**
 * The client's name for a task path an ingress refused, so that `error.param` names the client's field
 * (`temperature`, not `sampling.temperature`). The longest prefix of `taskPath` (on segment boundaries) found in
 * `names` is replaced and the rest kept; a path no entry covers is returned as it is, and an empty one is `body`.
 */
export function clientFieldPath(taskPath: readonly PropertyKey[], names: ClientFieldNames): string {
  const segments = taskPath.map(String);
  for (let length = segments.length; length > 0; length -= 1) {
    const client = names[segments.slice(0, length).join('.')];
    if (client !== undefined && Object.hasOwn(names, segments.slice(0, length).join('.'))) return [client, ...segments.slice(length)].join('.');
  }
  return segments.join('.') || 'body';
}

/** The sampling fields under the names the OpenAI and Anthropic dialects give them at the top of a request. */
export const SNAKE_CASE_SAMPLING_NAMES: ClientFieldNames = Object.freeze({
  'sampling.temperature': 'temperature',
  'sampling.topP': 'top_p',
  'sampling.topK': 'top_k',
  'sampling.frequencyPenalty': 'frequency_penalty',
  'sampling.presencePenalty': 'presence_penalty',
  'sampling.seed': 'seed',
});
