import { createOpaqueStateSeal } from '@tokenforge/provider-adapters';
import { CROSS_DIALECT_SIGNING_KEY } from './cross-dialect-signing-key.js';
import type { ChatDialect } from './dialects.js';
import type { ClientView } from './sdk-clients.js';

const seal = createOpaqueStateSeal(new TextEncoder().encode(CROSS_DIALECT_SIGNING_KEY));

/**
 * The view with every opaque value the gateway sealed opened again. In a cross pair every value must be sealed, and
 * sealed naming the provider family that produced it; in a same-dialect pair every value must be the provider's own.
 */
export function unsealedView(view: ClientView, dialect: ChatDialect, provider: ChatDialect): ClientView {
  const open = (value: string): string => {
    const opened = seal.open(value);
    if (opened === 'invalid') throw new Error('a sealed value does not verify');
    if (opened === undefined) {
      if (dialect !== provider) throw new Error(`a ${provider} value reached a ${dialect} client unsealed`);
      return value;
    }
    if (dialect === provider) throw new Error('a same-dialect value was sealed');
    if (opened.family !== provider) throw new Error(`a value sealed as ${opened.family} came from ${provider}`);
    return opened.value;
  };
  return {
    ...view,
    reasoningSignatures: view.reasoningSignatures.map(open),
    redactedReasoning: view.redactedReasoning.map(open),
    toolCalls: view.toolCalls.map((call) => (call.signature === undefined ? call : { ...call, signature: open(call.signature) })),
  };
}
