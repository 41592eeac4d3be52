import { describeIngressHostileInput } from '../../test-support/ingress-hostile-input.js';
import { createOpenAiEmbeddingsIngressCodec } from './ingress.js';

describeIngressHostileInput({
  family: 'openai-embeddings',
  ingress: createOpenAiEmbeddingsIngressCodec(),
  path: '/v1/embeddings',
  bodyWithField: (field) => ({ model: 'm', input: field }),
});
