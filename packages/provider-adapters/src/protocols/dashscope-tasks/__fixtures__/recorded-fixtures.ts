/*
 * Recorded DashScope bodies (cnblogs/dashscope-sdk@7afccbd15807, MIT, Copyright (c) 2024 cnblogs; rows in NOTICE.md)
 * as string constants, byte for byte (a leading U+FEFF is the recorded byte-order mark), so conformance cases can
 * replay them without reading files. `recorded-fixtures.test.ts` proves each equals its file.
 */

/** `cnblogs-dashscope-sdk__image-synthesis-nosse.response.body.txt`. */
export const DASHSCOPE_IMAGE_SYNTHESIS_CREATE_BODY = "\ufeff{\"output\":{\"task_status\":\"PENDING\",\"task_id\":\"9e2b6ef6-285d-4efa-8651-4dbda7d571fa\"},\"request_id\":\"33da8e6b-1309-9a44-be83-352165959608\"}\n";

/** `cnblogs-dashscope-sdk__get-task-running-nosse.response.body.txt`. */
export const DASHSCOPE_GET_TASK_RUNNING_BODY = "\ufeff{\"request_id\":\"edbd4e81-d37b-97f1-9857-d7394829dd0f\",\"output\":{\"task_id\":\"9e2b6ef6-285d-4efa-8651-4dbda7d571fa\",\"task_status\":\"RUNNING\",\"submit_time\":\"2024-03-01 17:38:24.817\",\"scheduled_time\":\"2024-03-01 17:38:24.831\",\"task_metrics\":{\"TOTAL\":4,\"SUCCEEDED\":0,\"FAILED\":0}}}\n";

/** `cnblogs-dashscope-sdk__get-task-image-synthesis-success-nosse.response.body.txt`. */
export const DASHSCOPE_GET_TASK_IMAGE_SUCCESS_BODY = "\ufeff{\"request_id\":\"6662e925-4846-9afe-a3af-0d131805d378\",\"output\":{\"task_id\":\"9e2b6ef6-285d-4efa-8651-4dbda7d571fa\",\"task_status\":\"SUCCEEDED\",\"submit_time\":\"2024-03-01 17:38:24.817\",\"scheduled_time\":\"2024-03-01 17:38:24.831\",\"end_time\":\"2024-03-01 17:38:55.565\",\"results\":[{\"url\":\"https://dashscope-result-bj.oss-cn-beijing.aliyuncs.com/1d/d4/20240301/8d820c8d/4c48fa53-2907-499b-b9ac-76477fe8d299-1.png\"},{\"url\":\"https://dashscope-result-sh.oss-cn-shanghai.aliyuncs.com/1d/79/20240301/3ab595ad/aa3e6d8d-884d-4431-b9c2-3684edeb072e-1.png\"},{\"url\":\"https://dashscope-result-sh.oss-cn-shanghai.aliyuncs.com/1d/79/20240301/3ab595ad/aa3e6d8d-884d-4431-b9c2-3684edeb072e-1.png\"},{\"url\":\"https://dashscope-result-sh.oss-cn-shanghai.aliyuncs.com/1d/3d/20240301/3ab595ad/3fca748e-d491-458a-bb72-73649af33209-1.png\"}],\"task_metrics\":{\"TOTAL\":4,\"SUCCEEDED\":4,\"FAILED\":0}},\"usage\":{\"image_count\":4}}\n";

/** `cnblogs-dashscope-sdk__get-task-unknown-nosse.response.body.txt`. */
export const DASHSCOPE_GET_TASK_UNKNOWN_BODY = "\ufeff{\"request_id\":\"85c25460-6440-91a7-b14e-2978fe60bd0f\",\"output\":{\"task_id\":\"1111\",\"task_status\":\"UNKNOWN\"}}\n";

/** `cnblogs-dashscope-sdk__cancel-completed-task-nosse.response.body.txt`. */
export const DASHSCOPE_CANCEL_COMPLETED_TASK_BODY = "\ufeff{\"request_id\":\"4d496c94-1389-9ca9-a92a-3e732f675686\",\"code\":\"UnsupportedOperation\",\"message\":\"Failed to cancel the task, please confirm if the task is in PENDING status.\"}\n";

/** `cnblogs-dashscope-sdk__list-task-nosse.response.body.txt`. */
export const DASHSCOPE_LIST_TASKS_BODY = "{\"total\":1,\"data\":[{\"api_key_id\":\"42677\",\"caller_parent_id\":\"1493478651020171\",\"caller_uid\":\"1493478651020171\",\"end_time\":1709260685184,\"gmt_create\":1709260684485,\"model_name\":\"text-embedding-async-v2\",\"region\":\"cn-beijing\",\"request_id\":\"db5ce040-4548-9919-9a75-3385ee152335\",\"start_time\":1709260684527,\"status\":\"SUCCEEDED\",\"task_id\":\"6075262c-b56d-4968-9abf-2a9784a90f3e\",\"user_api_unique_key\":\"apikey:v1:embeddings:text-embedding:text-embedding:text-embedding-async-v2\"}],\"total_page\":1,\"page_no\":1,\"request_id\":\"fcb29ae5-a352-9e7b-901c-e53525376cde\",\"page_size\":10}\n";
