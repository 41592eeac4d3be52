import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as recorded from './__fixtures__/recorded-fixtures.js';

const files: Record<string, string> = {
  DASHSCOPE_IMAGE_SYNTHESIS_CREATE_BODY: 'cnblogs-dashscope-sdk__image-synthesis-nosse.response.body.txt',
  DASHSCOPE_GET_TASK_RUNNING_BODY: 'cnblogs-dashscope-sdk__get-task-running-nosse.response.body.txt',
  DASHSCOPE_GET_TASK_IMAGE_SUCCESS_BODY: 'cnblogs-dashscope-sdk__get-task-image-synthesis-success-nosse.response.body.txt',
  DASHSCOPE_GET_TASK_UNKNOWN_BODY: 'cnblogs-dashscope-sdk__get-task-unknown-nosse.response.body.txt',
  DASHSCOPE_CANCEL_COMPLETED_TASK_BODY: 'cnblogs-dashscope-sdk__cancel-completed-task-nosse.response.body.txt',
  DASHSCOPE_LIST_TASKS_BODY: 'cnblogs-dashscope-sdk__list-task-nosse.response.body.txt',
};

describe('recorded DashScope fixture constants', () => {
  it.each(Object.entries(files))('%s equals its file byte for byte', (name, file) => {
    expect((recorded as Record<string, string>)[name]).toBe(readFileSync(new URL(`./__fixtures__/${file}`, import.meta.url), 'utf8'));
  });

  it('holds exactly the listed constants, and the BOM files start with U+FEFF', () => {
    expect(Object.keys(recorded).sort()).toEqual(Object.keys(files).sort());
    expect(recorded.DASHSCOPE_GET_TASK_RUNNING_BODY.charCodeAt(0)).toBe(0xfeff);
  });
});
