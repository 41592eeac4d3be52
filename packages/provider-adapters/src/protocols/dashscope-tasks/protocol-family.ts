/** The protocol family this folder implements. */
export const DASHSCOPE_TASKS_PROTOCOL_FAMILY = 'dashscope-tasks/v1';
