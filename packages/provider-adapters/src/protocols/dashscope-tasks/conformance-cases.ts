import type { ProviderDispatchTargetV2 } from '@tokenforge/model-protocol';
import type { ConformanceCaseV1, ConformanceExpectedRequestV1 } from '../../conformance/conformance-case-v1.js';
import {
  DASHSCOPE_CANCEL_COMPLETED_TASK_BODY,
  DASHSCOPE_GET_TASK_IMAGE_SUCCESS_BODY,
  DASHSCOPE_GET_TASK_RUNNING_BODY,
  DASHSCOPE_GET_TASK_UNKNOWN_BODY,
  DASHSCOPE_IMAGE_SYNTHESIS_CREATE_BODY,
} from './__fixtures__/recorded-fixtures.js';

const target: ProviderDispatchTargetV2 = {
  provider: 'conformance-provider',
  providerModel: 'dashscope-conformance-model',
  connectionRef: 'conformance-connection',
  capability: { protocolFamily: 'dashscope-tasks/v1', executionMode: 'async-job', taskKinds: ['image-generation', 'video-generation'] },
};

const TASK_ID = '9e2b6ef6-285d-4efa-8651-4dbda7d571fa';
const RESULT_URLS = [
  'https://dashscope-result-bj.oss-cn-beijing.aliyuncs.com/1d/d4/20240301/8d820c8d/4c48fa53-2907-499b-b9ac-76477fe8d299-1.png',
  'https://dashscope-result-sh.oss-cn-shanghai.aliyuncs.com/1d/79/20240301/3ab595ad/aa3e6d8d-884d-4431-b9c2-3684edeb072e-1.png',
  'https://dashscope-result-sh.oss-cn-shanghai.aliyuncs.com/1d/79/20240301/3ab595ad/aa3e6d8d-884d-4431-b9c2-3684edeb072e-1.png',
  'https://dashscope-result-sh.oss-cn-shanghai.aliyuncs.com/1d/3d/20240301/3ab595ad/3fca748e-d491-458a-bb72-73649af33209-1.png',
];

const imageCreate: ConformanceExpectedRequestV1 = {
  method: 'POST',
  path: '/api/v1/services/aigc/text2image/image-synthesis',
  headers: { accept: 'application/json', 'x-dashscope-async': 'enable' },
  body: { type: 'json', value: { model: 'dashscope-conformance-model', input: { prompt: 'a pelican on a bicycle' }, parameters: { size: '1024*1024', n: 4 } } },
};
const taskRequest = (suffix = ''): ConformanceExpectedRequestV1 => ({
  method: suffix === '' ? 'GET' : 'POST',
  path: `/api/v1/tasks/${TASK_ID}${suffix}`,
  headers: { accept: 'application/json' },
  body: { type: 'none' },
});

/**
 * Conformance cases of `dashscope-tasks/v1`: recorded cnblogs/dashscope-sdk traffic (MIT; see
 * `__fixtures__/NOTICE.md`), and constructed edge cases from §5 of the media wire fact sheet.
 */
export const dashScopeTasksConformanceCases: readonly ConformanceCaseV1[] = [
  {
    name: 'recorded image synthesis: create, get RUNNING, get SUCCEEDED, cancel refused as the task is not PENDING',
    target,
    task: { kind: 'image-generation', prompt: 'a pelican on a bicycle', count: 4, size: '1024x1024' },
    responses: [
      { label: 'cnblogs-dashscope-sdk__image-synthesis-nosse.response.body.txt', source: 'recorded', body: { type: 'text', text: DASHSCOPE_IMAGE_SYNTHESIS_CREATE_BODY } },
      { label: 'cnblogs-dashscope-sdk__get-task-running-nosse.response.body.txt', source: 'recorded', body: { type: 'text', text: DASHSCOPE_GET_TASK_RUNNING_BODY } },
      { label: 'cnblogs-dashscope-sdk__get-task-image-synthesis-success-nosse.response.body.txt', source: 'recorded', body: { type: 'text', text: DASHSCOPE_GET_TASK_IMAGE_SUCCESS_BODY } },
      { label: 'cnblogs-dashscope-sdk__cancel-completed-task-nosse.response.body.txt', source: 'recorded', status: 400, body: { type: 'text', text: DASHSCOPE_CANCEL_COMPLETED_TASK_BODY } },
    ],
    expect: { kind: 'accepted-job', responseMetadata: { providerRequestId: '33da8e6b-1309-9a44-be83-352165959608' }, providerJobId: TASK_ID },
    jobSteps: [
      {
        operation: 'get',
        providerJobId: TASK_ID,
        expect: { kind: 'observation', snapshot: { providerJobId: TASK_ID, state: 'running', rawState: 'RUNNING', createdAt: '2024-03-01T09:38:24.817Z', outputCounts: { succeeded: 0, failed: 0 } } },
      },
      {
        operation: 'get',
        providerJobId: TASK_ID,
        expect: {
          kind: 'observation',
          snapshot: {
            providerJobId: TASK_ID,
            state: 'succeeded',
            rawState: 'SUCCEEDED',
            createdAt: '2024-03-01T09:38:24.817Z',
            finishedAt: '2024-03-01T09:38:55.565Z',
            media: RESULT_URLS.map((url) => ({ type: 'image' as const, url })),
            outputCounts: { succeeded: 4, failed: 0 },
            usage: { images: 4 },
          },
        },
      },
      { operation: 'cancel', providerJobId: TASK_ID, expect: { kind: 'engine-error', code: 'PROTOCOL_ENGINE_PROVIDER_FAILED', phase: 'adapter', transportBound: true } },
    ],
    requests: [imageCreate, taskRequest(), taskRequest(), taskRequest('/cancel')],
  },
  {
    name: 'recorded UNKNOWN task reads as unknown',
    target,
    task: { kind: 'image-generation', prompt: 'a pelican on a bicycle', count: 4, size: '1024x1024' },
    responses: [
      { label: 'constructed create answer for task 1111 (§5 create shape)', source: 'constructed', body: { type: 'json', value: { request_id: 'r-create', output: { task_id: '1111', task_status: 'PENDING' } } } },
      { label: 'cnblogs-dashscope-sdk__get-task-unknown-nosse.response.body.txt', source: 'recorded', body: { type: 'text', text: DASHSCOPE_GET_TASK_UNKNOWN_BODY } },
    ],
    expect: { kind: 'accepted-job', responseMetadata: { providerRequestId: 'r-create' }, providerJobId: '1111' },
    jobSteps: [{ operation: 'get', providerJobId: '1111', expect: { kind: 'observation', snapshot: { providerJobId: '1111', state: 'unknown', rawState: 'UNKNOWN' } } }],
    requests: [imageCreate, { method: 'GET', path: '/api/v1/tasks/1111', headers: { accept: 'application/json' }, body: { type: 'none' } }],
  },
  {
    name: 'video create refused with HTTP 400 InvalidParameter is not-accepted',
    target,
    task: { kind: 'video-generation', prompt: 'a cat', resolution: '1280x720', durationSeconds: 5 },
    responses: [{ label: 'HTTP 400 InvalidParameter (§5 error shapes)', source: 'constructed', status: 400, body: { type: 'json', value: { request_id: 'r-400', code: 'InvalidParameter', message: 'bad size' } } }],
    expect: { kind: 'rejected', acceptance: 'not-accepted', responseMetadata: { providerRequestId: 'r-400' }, failureCode: 'invalid-request', retryable: false },
    requests: [
      {
        method: 'POST',
        path: '/api/v1/services/aigc/video-generation/video-synthesis',
        headers: { accept: 'application/json', 'x-dashscope-async': 'enable' },
        body: { type: 'json', value: { model: 'dashscope-conformance-model', input: { prompt: 'a cat' }, parameters: { size: '1280*720', duration: 5 } } },
      },
    ],
  },
  {
    name: 'HTTP 500 on create is unknown and not retryable',
    target,
    task: { kind: 'image-generation', prompt: 'a pelican on a bicycle', count: 4, size: '1024x1024' },
    responses: [{ label: 'HTTP 500 InternalError (§5 error shapes)', source: 'constructed', status: 500, body: { type: 'json', value: { request_id: 'r-500', code: 'InternalError', message: 'oops' } } }],
    expect: { kind: 'rejected', acceptance: 'unknown', responseMetadata: { providerRequestId: 'r-500' }, failureCode: 'provider-error', retryable: false },
    requests: [imageCreate],
  },
  {
    name: 'transport failure before send is not-accepted and retryable',
    target,
    task: { kind: 'image-generation', prompt: 'a pelican on a bicycle', count: 4, size: '1024x1024' },
    responses: [{ label: 'before-send connect failure', source: 'constructed', failure: { stage: 'before-send', reason: 'connect-failed' } }],
    expect: { kind: 'rejected', acceptance: 'not-accepted', failureCode: 'network', retryable: true },
    requests: [imageCreate],
  },
];
