import { describeIngressHostileInput } from '../../test-support/ingress-hostile-input.js';
import { createOpenAiImagesIngressCodec } from './ingress.js';

describeIngressHostileInput({
  family: 'openai-images',
  ingress: createOpenAiImagesIngressCodec(),
  path: '/v1/images/generations',
  bodyWithField: (field) => ({ model: 'm', prompt: field }),
});
