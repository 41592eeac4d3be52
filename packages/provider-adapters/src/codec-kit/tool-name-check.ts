import { CodecErrorV1 } from '@tokenforge/model-protocol';

/** Checks one client request's tool names as an ingress reads them: call it once per offered function tool. */
export type ToolNameCheck = (name: string, path: string) => void;

/**
 * The one rule every ingress applies to the function tools of a request: a name may be offered once. A model calls
 * tools by name, so a repeated name would make a call ambiguous (and most providers refuse the request, after the
 * call was paid for). A repeat is a `CodecErrorV1('invalid-request')` whose path is the name field of the second
 * tool, which egress writes as the client's `param`.
 */
export function createToolNameCheck(): ToolNameCheck {
  const seen = new Set<string>();
  return (name, path) => {
    if (seen.has(name)) throw new CodecErrorV1('invalid-request', `${path} repeats the name of an earlier tool`, { path });
    seen.add(name);
  };
}
