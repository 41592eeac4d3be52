import { describeIngressHostileInput } from '../../test-support/ingress-hostile-input.js';
import { createCohereRerankIngressCodec } from './ingress.js';

describeIngressHostileInput({
  family: 'cohere-rerank',
  ingress: createCohereRerankIngressCodec(),
  path: '/v2/rerank',
  bodyWithField: (field) => ({ model: 'm', documents: field }),
});
